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
#include "exogpu/fill.h"
#include "exogpu/npy.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

// The helpers a proc may not need (no control value, no input, no
// write-only output) are [[maybe_unused]].
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
  /// Inputs from DIR/NAME.npy; empty: the pcg3d fill, on the device.
  std::string inputs;
  std::string outputs = ".", writeInputs;
  uint32_t seed = 1;
  long runs = 1;
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
    } else if (arg == "--write-inputs" && i + 1 < argc) {
      options.writeInputs = next;
    } else if (arg == "--seed" && i + 1 < argc) {
      options.seed = static_cast<uint32_t>(std::strtoul(next.c_str(), nullptr, 10));
    } else if (arg == "--runs" && i + 1 < argc && std::atol(next.c_str()) > 0) {
      options.runs = std::atol(next.c_str());
    } else if (arg == "--timeout-ms" && i + 1 < argc) {
      options.timeoutMs = std::atol(next.c_str());
    } else {
      fail(1, "usage: " + std::string(argv[0]) +
                  " --sizes NAME=VALUE,... [--seed S] [--runs N] "
                  "[--inputs DIR] [--write-inputs DIR] [--outputs DIR] "
                  "[--timeout-ms MS]");
    }
    ++i;
  }
  return options;
}

[[maybe_unused]] int64_t value(const Options &options, const char *name) {
  auto it = options.values.find(name);
  if (it == options.values.end())
    fail(1, std::string("--sizes needs a value for ") + name);
  return it->second;
}

/// `dir` with every "{seed}" replaced by `seed`, created if missing.
std::string runDirectory(std::string dir, uint32_t seed) {
  for (size_t at; (at = dir.find("{seed}")) != std::string::npos;)
    dir.replace(at, 6, std::to_string(seed));
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  return dir;
}

/// One data parameter: its host copy and, in device memory, its device copy.
struct Buffer {
  std::string name, descr;
  exogpu::fill::Kind kind;
  std::vector<int64_t> shape;
  int64_t count = 0;
  size_t bytes = 0;
  /// The contents read from --inputs, restored before every run.
  std::vector<unsigned char> initial;
  std::vector<unsigned char> host;
  void *device = nullptr;
  bool onDevice = true;

  Buffer(std::string name, std::string descr, exogpu::fill::Kind kind,
         std::vector<int64_t> shape, bool onDevice)
      : name(std::move(name)), descr(std::move(descr)), kind(kind),
        shape(std::move(shape)), onDevice(onDevice) {
    count = exogpu::npy::numElements(this->shape);
    if (count < 0)
      fail(1, "%" + this->name + " has a negative extent");
    bytes = size_t(count) * exogpu::fill::elementBytes(kind);
    host.resize(bytes);
    if (onDevice)
      check(cudaMalloc(&device, bytes ? bytes : 1), "cudaMalloc");
  }

  void *pointer() { return onDevice ? device : host.data(); }
};

/// Reads DIR/NAME.npy as the buffer's initial contents, checking dtype and
/// shape.
[[maybe_unused]] void readInput(Buffer &buffer, const std::string &dir) {
  exogpu::npy::Array array;
  std::string path = dir + "/" + buffer.name + ".npy";
  std::string error = exogpu::npy::read(path, array);
  if (!error.empty())
    fail(1, error);
  if (array.descr != buffer.descr || array.shape != buffer.shape)
    fail(1, path + ": dtype or shape differs from the parameter's");
  buffer.initial = std::move(array.data);
}

/// Sets an input for a run: its file contents, or the pcg3d fill of the
/// parameter at position `param` with `seed` (docs/running.md), computed
/// where the buffer lives.
[[maybe_unused]] void prepareInput(Buffer &buffer, uint32_t param,
                                   uint32_t seed, cudaStream_t stream) {
  if (!buffer.initial.empty() || buffer.bytes == 0) {
    if (!buffer.onDevice) {
      buffer.host = buffer.initial;
      return;
    }
    check(cudaMemcpyAsync(buffer.device, buffer.initial.data(), buffer.bytes,
                          cudaMemcpyHostToDevice, stream),
          "cudaMemcpy to the device");
    return;
  }
  if (!buffer.onDevice) {
    exogpu::fill::fillHost(buffer.kind, buffer.host.data(), buffer.count,
                           param, seed);
    return;
  }
  check(exogpu::fill::fillDevice(buffer.kind, buffer.device, buffer.count,
                                 param, seed, stream),
        "the input fill");
}

/// Fills a write-only output with `byte`, as the runner poisons it.
[[maybe_unused]] void poison(Buffer &buffer, int byte, cudaStream_t stream) {
  if (!buffer.onDevice) {
    std::memset(buffer.host.data(), byte, buffer.bytes);
    return;
  }
  check(cudaMemsetAsync(buffer.device, byte, buffer.bytes, stream),
        "cudaMemset");
}

/// Waits for `stream`, at most `timeoutMs`: a kernel that does not finish
/// is reported, and the process exits at once with 124 (as timeout(1)
/// does), without the CUDA teardown that would wait for the kernel.
void waitFor(cudaStream_t stream, long timeoutMs, long run, uint32_t seed) {
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  while (true) {
    cudaError_t status = cudaStreamQuery(stream);
    if (status == cudaSuccess)
      return;
    if (status != cudaErrorNotReady)
      check(status, "the kernel failed");
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr,
                   "driver: run %ld (seed %u): timeout: the kernel did not "
                   "finish in %ld ms (a hang?)\n",
                   run, seed, timeoutMs);
      std::fflush(stderr);
      std::fflush(stdout);
      std::_Exit(124);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

/// Copies the buffer back (the stream is idle) and writes DIR/NAME.npy.
[[maybe_unused]] void writeArray(Buffer &buffer, const std::string &dir) {
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
  os << " [--seed S] [--runs N] [--inputs IN]\n"
     << "//         [--write-inputs DIR] [--outputs OUT] [--timeout-ms MS]\n"
     << "// Run r (of N, default 1) fills every input on the device with the "
        "runner's\n// pcg3d fill at seed S + r (default S = 1), or reads "
        "IN/NAME.npy (exogpu-run\n// --write-inputs), poisons the "
        "write-only outputs, runs @"
     << name
     << " and writes\n// OUT/NAME.npy; \"{seed}\" in a folder "
        "name is the run's seed. Exit codes: 0\n// ran, 1 usage or "
        "file error, 2 CUDA error, 77 no CUDA device (skip), 124\n"
        "// timeout.";
  // A proc whose buffers are all host memory runs without a device: its
  // host function runs on the CPU (and fails if it launches a kernel).
  bool hostOnly = llvm::all_of(
      params, [](const ParamInfo &p) { return !p.isData() || p.isHostMemory; });
  if (hostOnly)
    os << " Every buffer is host memory: without a CUDA device the\n"
          "// host function runs on the CPU.";
  os << "\n#include \"" << header << "\"\n"
     << kPrelude << "\nint main(int argc, char **argv) {\n"
     << "  Options options = parseOptions(argc, argv);\n"
     << "  int devices = 0;\n"
     << "  const bool hasDevice =\n"
     << "      cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;\n"
     << "  if (!hasDevice) {\n";
  if (hostOnly)
    os << "    std::fprintf(stderr, \"driver: no CUDA device: running on the "
          "CPU\\n\");\n";
  else
    os << "    std::fprintf(stderr, \"driver: no CUDA device: "
          "skipped\\n\");\n"
       << "    return 77;\n";
  os << "  }\n";
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
    // fill.h's Kind enumerators are the precision names in upper case.
    os << "  Buffer b_" << param.name << "(\"" << param.name << "\", \""
       << info.npyDescr << "\", exogpu::fill::Kind::" << info.name.upper()
       << ", {";
    llvm::interleaveComma(param.extents.getResults(), os,
                          [&](AffineExpr e) { printCppExpr(os, e, params); });
    os << "}, /*onDevice=*/" << (param.isHostMemory ? "false" : "true")
       << ");\n";
    if (param.mode != ParamAccessMode::WriteOnly)
      os << "  if (!options.inputs.empty())\n"
         << "    readInput(b_" << param.name << ", options.inputs);\n";
  }
  os << "  cudaStream_t stream = nullptr;\n"
     << "  if (hasDevice)\n"
     << "    check(cudaStreamCreate(&stream), \"cudaStreamCreate\");\n"
     << "  for (long run = 0; run < options.runs; ++run) {\n"
     << "    uint32_t seed = options.seed + static_cast<uint32_t>(run);\n";
  for (auto [position, param] : llvm::enumerate(params)) {
    if (!param.isData())
      continue;
    if (param.mode == ParamAccessMode::WriteOnly)
      os << "    poison(b_" << param.name << ", "
         << (getInfo(param.precision).isFloat ? "0xFF" : "0xAB")
         << ", stream); // write-only\n";
    else
      os << "    prepareInput(b_" << param.name << ", /*param=*/" << position
         << ", seed, stream);\n";
  }
  os << "    if (hasDevice)\n"
     << "      check(cudaStreamSynchronize(stream), \"preparing the "
        "inputs\");\n"
     << "    if (!options.writeInputs.empty()) {\n"
     << "      std::string dir = runDirectory(options.writeInputs, seed);\n";
  for (const ParamInfo &param : params)
    if (param.isData() && param.mode != ParamAccessMode::WriteOnly)
      os << "      writeArray(b_" << param.name << ", dir);\n";
  os << "    }\n"
     << "    check(" << name << "(stream";
  for (const ParamInfo &param : params) {
    os << ",\n          ";
    if (!param.isData()) {
      os << "p_" << param.name;
      continue;
    }
    // A T * converts to the const T * of a parameter the proc never writes.
    os << "static_cast<" << getInfo(param.precision).cudaType << " *>(b_"
       << param.name << ".pointer())";
  }
  os << "),\n          \"@" << name << "\");\n"
     << "    if (hasDevice)\n"
     << "      waitFor(stream, options.timeoutMs, run, seed);\n"
     << "    std::string dir = runDirectory(options.outputs, seed);\n";
  for (const ParamInfo &param : params)
    if (param.isData() && param.mode != ParamAccessMode::ReadOnly)
      os << "    writeArray(b_" << param.name << ", dir);\n";
  os << "    std::printf(\"driver: @" << name
     << " run %ld (seed %u) ran; outputs in %s\\n\", run, seed, "
        "dir.c_str());\n"
     << "    std::fflush(stdout);\n"
     << "  }\n"
     << "  return 0;\n}\n";
}
