// Procs that access buffers through exogpu.split, and their twins with
// plain indices (test/Runner/split.test).

// C = A + 1 through splits: the first chunk of 4 columns through a split
// of C, the others through a split of the window C[:, 4:K] (a strided
// view), A through a split of a split.
exogpu.proc @add_one_split(%M: size, %K: size, %A: f32[%M, %K] @DRAM, %C: f32[%M, %K] @DRAM) {
  %A4 = exogpu.split %A dim 1 by 4 : f32[?, ?] @DRAM
  %A22 = exogpu.split %A4 dim 2 by 2 : window f32[?, ?, 4] @DRAM
  %C4 = exogpu.split %C dim 1 by 4 : f32[?, ?] @DRAM
  %tail = exogpu.window %C[:, 4:%K] : f32[?, ?] @DRAM
  %tail4 = exogpu.split %tail dim 1 by 4 : window f32[?, ?] @DRAM
  exogpu.for %m in seq(0, %M) {
    exogpu.for %k in seq(0, 4) {
      exogpu.assign %C4[%m, 0, %k] = %A4[%m, 0, %k] + 1.0 : window f32[?, ?, 4] @DRAM, window f32[?, ?, 4] @DRAM
    }
    exogpu.for %s in seq(0, %K / 4 - 1) {
      exogpu.for %hi in seq(0, 2) {
        exogpu.for %lo in seq(0, 2) {
          exogpu.assign %tail4[%m, %s, %hi * 2 + %lo] = %A22[%m, %s + 1, %hi, %lo] + 1.0 : window f32[?, ?, 4] @DRAM, window f32[?, ?, 2, 2] @DRAM
        }
      }
    }
  }
}

exogpu.proc @add_one_ref(%M: size, %K: size, %A: f32[%M, %K] @DRAM, %C: f32[%M, %K] @DRAM) {
  exogpu.for %m in seq(0, %M) {
    exogpu.for %j in seq(0, %K) {
      exogpu.assign %C[%m, %j] = %A[%m, %j] + 1.0 : f32[?, ?] @DRAM, f32[?, ?] @DRAM
    }
  }
}

// The split-k entry point's shape: a proc taking [M, S, KC] called with
// the split [M, K / 4, 4] of an [M, K] matrix.
exogpu.proc @row_sums_chunks(%M: size, %S: size, %KC: size, %A: f32[%M, %S, %KC] @DRAM, %y: f32[%M] @DRAM) {
  exogpu.for %m in seq(0, %M) {
    exogpu.assign %y[%m] = 0.0 : f32[?] @DRAM
    exogpu.for %s in seq(0, %S) {
      exogpu.for %k in seq(0, %KC) {
        exogpu.reduce %y[%m] += %A[%m, %s, %k] : f32[?] @DRAM, f32[?, ?, ?] @DRAM
      }
    }
  }
}

exogpu.proc @row_sums(%M: size, %K: size, %A: f32[%M, %K] @DRAM, %y: f32[%M] @DRAM) {
  %A4 = exogpu.split %A dim 1 by 4 : f32[?, ?] @DRAM
  exogpu.call @row_sums_chunks[%M, %K / 4, 4](%A4, %y) : window f32[?, ?, 4] @DRAM, f32[?] @DRAM
}

exogpu.proc @row_sums_ref(%M: size, %K: size, %A: f32[%M, %K] @DRAM, %y: f32[%M] @DRAM) {
  exogpu.for %m in seq(0, %M) {
    exogpu.assign %y[%m] = 0.0 : f32[?] @DRAM
    exogpu.for %j in seq(0, %K) {
      exogpu.reduce %y[%m] += %A[%m, %j] : f32[?] @DRAM, f32[?, ?] @DRAM
    }
  }
}

// Index 4 of a chunk of 4: element A[0, 4] exists, but not in the split's
// extents.
exogpu.proc @past_chunk(%K: size, %A: f32[2, %K] @DRAM, %y: f32[1] @DRAM) {
  %A4 = exogpu.split %A dim 1 by 4 : f32[2, ?] @DRAM
  exogpu.assign %y[0] = %A4[0, 0, 4] : f32[1] @DRAM, window f32[2, ?, 4] @DRAM
}
