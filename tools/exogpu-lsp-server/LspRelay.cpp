//===- LspRelay.cpp - MLIR's language server behind a relay --------------===//
//
// Part of ExoGPU. The server reads its stdin and writes its stdout; the
// relay moves those to pipes before it starts, keeps the client's streams
// for itself, and copies the messages across: from the client as they come
// (after ImportNavigation saw them and prepared its answers), from the
// server as it wrote them, but for a response to a definition or hover
// request that is empty where ImportNavigation has an answer.
//
//===----------------------------------------------------------------------===//

#include "LspRelay.h"
#include "ImportNavigation.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdio>
#include <fcntl.h>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::exogpu;

namespace {
/// How the client frames its messages and how responses are printed: the
/// server's `-lit-test`, `-input-style` and `-pretty` options, which it
/// parses itself.
struct Framing {
  bool delimited = false;
  bool pretty = false;
};
} // namespace

static Framing getFraming(int argc, char **argv) {
  Framing framing;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = StringRef(argv[i]).ltrim('-');
    if (arg == "lit-test")
      framing.delimited = framing.pretty = true;
    else if (arg == "pretty")
      framing.pretty = true;
    else if (arg == "input-style=delimited")
      framing.delimited = true;
  }
  return framing;
}

/// Writes all of `data` to `fd`.
static void writeAll(int fd, StringRef data) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    data = data.drop_front(written);
  }
}

/// Writes `json` as one message with the LSP header.
static void writeMessage(int fd, StringRef json) {
  writeAll(fd,
           ("Content-Length: " + llvm::Twine(json.size()) + "\r\n\r\n").str());
  writeAll(fd, json);
}

/// Whether a response's result is empty: null, or an empty list.
static bool isEmptyResult(const llvm::json::Value *result) {
  if (!result || result->kind() == llvm::json::Value::Null)
    return true;
  const llvm::json::Array *list = result->getAsArray();
  return list && list->empty();
}

/// The key of a request id (a number or a string).
static std::string getKey(const llvm::json::Value &id) {
  return llvm::formatv("{0}", id).str();
}

int mlir::exogpu::runLspServerWithImports(int argc, char **argv,
                                          lsp::DialectRegistryFn registry,
                                          ImportNavigation &navigation) {
  Framing framing = getFraming(argc, argv);
  int clientIn = ::dup(STDIN_FILENO), clientOut = ::dup(STDOUT_FILENO);
  int toServer[2], fromServer[2];
  if (clientIn < 0 || clientOut < 0 || ::pipe(toServer) || ::pipe(fromServer)) {
    std::perror("exogpu-lsp-server");
    return 1;
  }
  ::dup2(toServer[0], STDIN_FILENO);
  ::close(toServer[0]);
  ::dup2(fromServer[1], STDOUT_FILENO);
  ::close(fromServer[1]);

  std::mutex mutex;
  // The answers prepared for requests the server has not answered yet.
  llvm::StringMap<llvm::json::Value> prepared;

  // From the client to the server.
  std::atomic<bool> clientDone = false;
  std::thread relay([&, serverIn = toServer[1]] {
    llvm::lsp::JSONTransportInputOverFile input(
        ::fdopen(clientIn, "r"),
        framing.delimited ? llvm::lsp::Delimited : llvm::lsp::Standard);
    std::string message;
    while (!input.isEndOfInput() && !input.hasError()) {
      message.clear();
      if (failed(input.readMessage(message)))
        continue;
      if (llvm::Expected<llvm::json::Value> value =
              llvm::json::parse(message)) {
        const llvm::json::Object *object = value->getAsObject();
        const llvm::json::Value *params =
            object ? object->get("params") : nullptr;
        if (params) {
          StringRef method = object->getString("method").value_or("");
          navigation.observe(method, *params);
          if (const llvm::json::Value *id = object->get("id"))
            if (std::optional<llvm::json::Value> answer =
                    navigation.answer(method, *params)) {
              std::lock_guard<std::mutex> lock(mutex);
              prepared.insert_or_assign(getKey(*id), std::move(*answer));
            }
        }
      } else {
        llvm::consumeError(value.takeError());
      }
      if (framing.delimited)
        writeAll(serverIn, message + "\n// -----\n");
      else
        writeMessage(serverIn, message);
    }
    ::close(serverIn);
    clientDone = true;
  });

  int status = 0;
  std::thread server([&] {
    status = succeeded(MlirLspServerMain(argc, argv, registry)) ? 0 : 1;
    llvm::outs().flush();
    // The server's end of the pipe goes: the loop below sees the end.
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::close(null);
  });

  // From the server to the client.
  llvm::lsp::JSONTransportInputOverFile output(::fdopen(fromServer[0], "r"),
                                               llvm::lsp::Standard);
  std::string message;
  while (!output.isEndOfInput() && !output.hasError()) {
    message.clear();
    if (failed(output.readMessage(message)))
      continue;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(message);
    if (!value) {
      llvm::consumeError(value.takeError());
      writeMessage(clientOut, message);
      continue;
    }
    llvm::json::Object *object = value->getAsObject();
    const llvm::json::Value *id = object ? object->get("id") : nullptr;
    std::optional<llvm::json::Value> answer;
    if (id && !object->get("method")) {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = prepared.find(getKey(*id));
      if (it != prepared.end()) {
        answer = std::move(it->second);
        prepared.erase(it);
      }
    }
    if (!answer || !isEmptyResult(object->get("result"))) {
      writeMessage(clientOut, message);
      continue;
    }
    (*object)["result"] = std::move(*answer);
    writeMessage(
        clientOut,
        llvm::formatv(framing.pretty ? "{0:2}\n" : "{0}", *value).str());
  }
  server.join();
  // The relay may still wait on a client that sent `exit` but keeps its
  // stream open: leave without waiting for it.
  if (clientDone) {
    relay.join();
    return status;
  }
  relay.detach();
  std::fflush(nullptr);
  ::_exit(status);
}
