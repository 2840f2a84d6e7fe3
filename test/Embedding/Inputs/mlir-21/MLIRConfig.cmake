# A stand-in for the package of another MLIR release (test/Embedding/package.test).
set(LLVM_VERSION_MAJOR 21)
