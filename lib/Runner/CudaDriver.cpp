//===- CudaDriver.cpp - host drivers for translated kernels ---------------===//
//
// Part of ExoGPU. See CudaDriver.h. The driver is one fixed prelude
// (command line, .npy files, device buffers, timed wait) and a generated
// main that binds the proc's parameters.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Runner/CudaDriver.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::runner;

/// Everything but the proc-specific part of main.
static constexpr llvm::StringLiteral kPrelude = R"cpp(
#include "exogpu/npy.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

[[noreturn]] void fail(int code, const std::string &message) {
  std::fprintf(stderr, "driver: %s\n", message.c_str());
  std::exit(code);
}

void check(cudaError_t error, const char *what) {
  if (error != cudaSuccess)
    fail(2, std::string(what) + ": " + cudaGetErrorName(error) + ": " +
                cudaGetErrorString(error));
}

/// Floor division and non-negative remainder by a positive constant, as
/// exogpu control expressions define them.
[[maybe_unused]] int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
[[maybe_unused]] int64_t floorMod(int64_t a, int64_t b) {
  return a - floorDiv(a, b) * b;
}

struct Options {
  std::map<std::string, int64_t> values;
  std::string inputs = ".", outputs = ".";
  long timeoutMs = 10000;
};

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string next = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--sizes" && i + 1 < argc) {
      for (size_t start = 0; start < next.size();) {
        size_t end = next.find(',', start);
        if (end == std::string::npos)
          end = next.size();
        std::string item = next.substr(start, end - start);
        size_t eq = item.find('=');
        if (eq == std::string::npos)
          fail(1, "--sizes expects NAME=VALUE,..., got '" + item + "'");
        std::string value = item.substr(eq + 1);
        options.values[item.substr(0, eq)] =
            value == "true" ? 1 : value == "false" ? 0 : std::atoll(value.c_str());
        start = end + 1;
      }
    } else if (arg == "--inputs" && i + 1 < argc) {
      options.inputs = next;
    } else if (arg == "--outputs" && i + 1 < argc) {
      options.outputs = next;
    } else if (arg == "--timeout-ms" && i + 1 < argc) {
      options.timeoutMs = std::atol(next.c_str());
    } else {
      fail(1, "usage: " + std::string(argv[0]) +
                  " --sizes NAME=VALUE,... [--inputs DIR] [--outputs DIR] "
                  "[--timeout-ms MS]");
    }
    ++i;
  }
  return options;
}

int64_t value(const Options &options, const char *name) {
  auto it = options.values.find(name);
  if (it == options.values.end())
    fail(1, std::string("--sizes needs a value for ") + name);
  return it->second;
}

/// One data parameter: its host copy and, in device memory, its device copy.
struct Buffer {
  std::string name, descr;
  std::vector<int64_t> shape;
  size_t bytes = 0;
  std::vector<unsigned char> host;
  void *device = nullptr;
  bool onDevice = true;

  Buffer(std::string name, std::string descr, std::vector<int64_t> shape,
         size_t elementBytes, bool onDevice)
      : name(std::move(name)), descr(std::move(descr)),
        shape(std::move(shape)), onDevice(onDevice) {
    int64_t count = exogpu::npy::numElements(this->shape);
    if (count < 0)
      fail(1, "%" + this->name + " has a negative extent");
    bytes = size_t(count) * elementBytes;
  }

  void *pointer() { return onDevice ? device : host.data(); }
};

/// Reads DIR/NAME.npy into the buffer, checking dtype and shape.
void readInput(Buffer &buffer, const std::string &dir) {
  exogpu::npy::Array array;
  std::string path = dir + "/" + buffer.name + ".npy";
  std::string error = exogpu::npy::read(path, array);
  if (!error.empty())
    fail(1, error);
  if (array.descr != buffer.descr || array.shape != buffer.shape)
    fail(1, path + ": dtype or shape differs from the parameter's");
  buffer.host = std::move(array.data);
}

/// Allocates the buffer; `poison` fills it with the byte (inputs are copied).
void allocate(Buffer &buffer, int poison) {
  if (poison >= 0)
    buffer.host.assign(buffer.bytes, static_cast<unsigned char>(poison));
  if (!buffer.onDevice)
    return;
  check(cudaMalloc(&buffer.device, buffer.bytes ? buffer.bytes : 1),
        "cudaMalloc");
  check(cudaMemcpy(buffer.device, buffer.host.data(), buffer.bytes,
                   cudaMemcpyHostToDevice),
        "cudaMemcpy to the device");
}

/// Waits for `stream`, at most `timeoutMs`: a kernel that does not finish
/// is reported, and the process exits with 124 (as timeout(1) does).
void waitFor(cudaStream_t stream, long timeoutMs) {
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (true) {
    cudaError_t status = cudaStreamQuery(stream);
    if (status == cudaSuccess)
      return;
    if (status != cudaErrorNotReady)
      check(status, "the kernel failed");
    if (std::chrono::steady_clock::now() > deadline)
      fail(124, "timeout: the kernel did not finish in " +
                    std::to_string(timeoutMs) + " ms (a hang?)");
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

/// Copies an output back and writes DIR/NAME.npy.
void writeOutput(Buffer &buffer, const std::string &dir) {
  if (buffer.onDevice)
    check(cudaMemcpy(buffer.host.data(), buffer.device, buffer.bytes,
                     cudaMemcpyDeviceToHost),
          "cudaMemcpy to the host");
  std::string error = exogpu::npy::write(dir + "/" + buffer.name + ".npy",
                                         buffer.descr, buffer.shape,
                                         buffer.host.data());
  if (!error.empty())
    fail(1, error);
}

} // namespace
)cpp";

/// Prints `expr` as C++ over the parameter names (`floorDiv`, `floorMod`
/// for the floor division and remainder of control expressions).
static void printCppExpr(llvm::raw_ostream &os, AffineExpr expr,
                         ArrayRef<ParamInfo> params) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    os << c.getValue() << "LL";
    return;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    os << "p_" << params[d.getPosition()].name;
    return;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  auto binary = [&](StringRef op) {
    os << '(';
    printCppExpr(os, bin.getLHS(), params);
    os << ' ' << op << ' ';
    printCppExpr(os, bin.getRHS(), params);
    os << ')';
  };
  auto call = [&](StringRef function) {
    os << function << '(';
    printCppExpr(os, bin.getLHS(), params);
    os << ", ";
    printCppExpr(os, bin.getRHS(), params);
    os << ')';
  };
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return binary("+");
  case AffineExprKind::Mul:
    return binary("*");
  case AffineExprKind::FloorDiv:
    return call("floorDiv");
  case AffineExprKind::Mod:
    return call("floorMod");
  default:
    return call("/*unsupported*/ floorDiv");
  }
}

void mlir::exogpu::runner::emitCudaDriver(llvm::raw_ostream &os,
                                          const BoundProc &proc,
                                          StringRef header) {
  StringRef name = proc.getProc().getSymName();
  ArrayRef<ParamInfo> params = proc.getParams();
  os << "// Generated by exogpu-run --emit-cuda-driver: runs @" << name
     << " on a GPU.\n"
     << "//   nvcc -std=c++17 -O3 -I<exogpu>/runtime/include <arch> "
        "kernel.cu driver.cu -o run\n"
     << "//   ./run --sizes ";
  llvm::interleave(
      llvm::make_filter_range(params,
                              [](const ParamInfo &p) { return !p.isData(); }),
      os, [&](const ParamInfo &p) { os << p.name << "=..."; }, ",");
  os << " --inputs IN --outputs OUT [--timeout-ms MS]\n"
     << "// IN holds NAME.npy for every input (exogpu-run --write-inputs); "
        "the outputs\n// are written to OUT/NAME.npy. Exit codes: 0 ran, 1 "
        "usage or file error, 2 CUDA\n// error, 77 no CUDA device (skip), "
        "124 timeout.\n"
     << "#include \"" << header << "\"\n"
     << kPrelude << "\nint main(int argc, char **argv) {\n"
     << "  Options options = parseOptions(argc, argv);\n"
     << "  int devices = 0;\n"
     << "  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) "
        "{\n"
     << "    std::fprintf(stderr, \"driver: no CUDA device: skipped\\n\");\n"
     << "    return 77;\n  }\n";
  for (const ParamInfo &param : params) {
    if (param.isData())
      continue;
    os << "  " << (param.kind == ParamKind::boolean ? "bool" : "int64_t")
       << " p_" << param.name << " = value(options, \"" << param.name
       << "\");\n";
  }
  for (const ParamInfo &param : params) {
    if (!param.isData())
      continue;
    const PrecisionInfo &info = getInfo(param.precision);
    std::string buffer = "b_" + param.name;
    os << "  Buffer " << buffer << "(\"" << param.name << "\", \""
       << info.npyDescr << "\", {";
    llvm::interleaveComma(param.extents.getResults(), os,
                          [&](AffineExpr e) { printCppExpr(os, e, params); });
    os << "}, " << info.bytes << ", /*onDevice=*/"
       << (param.isHostMemory ? "false" : "true") << ");\n";
    if (param.mode == ParamAccessMode::WriteOnly) {
      os << "  allocate(" << buffer << ", " << (info.isFloat ? "0xFF" : "0xAB")
         << "); // write-only: poisoned\n";
    } else {
      os << "  readInput(" << buffer << ", options.inputs);\n"
         << "  allocate(" << buffer << ", -1);\n";
    }
  }
  os << "  cudaStream_t stream;\n"
     << "  check(cudaStreamCreate(&stream), \"cudaStreamCreate\");\n"
     << "  check(" << name << "(stream";
  for (const ParamInfo &param : params) {
    os << ",\n        ";
    if (!param.isData()) {
      os << "p_" << param.name;
      continue;
    }
    // A T * converts to the const T * of a parameter the proc never writes.
    os << "static_cast<" << getInfo(param.precision).cudaType << " *>(b_"
       << param.name << ".pointer())";
  }
  os << "),\n        \"@" << name << "\");\n"
     << "  waitFor(stream, options.timeoutMs);\n";
  for (const ParamInfo &param : params)
    if (param.isData() && param.mode != ParamAccessMode::ReadOnly)
      os << "  writeOutput(b_" << param.name << ", options.outputs);\n";
  os << "  std::printf(\"driver: @" << name
     << " ran; outputs in %s\\n\", options.outputs.c_str());\n"
     << "  return 0;\n}\n";
}
