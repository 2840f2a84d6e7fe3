// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// Thread mappings (seeds/002 Def. 5.2; the collective tiling of Def. 4.2
// evaluated as in seeds/001): dimension m starts as [0, D_m P_m - 1]; an
// operator (iter, box, offset) makes it [x, x + box - 1] with
// x = a + offset + sigma(iter) * box; the coordinates are [a / P_m, b / P_m].

// Warp 1 of a 128-thread CTA, `gpu[4 (%w, 32, 0), 32]`: dimension 0 has
// pitch 32, so [32, 63] / 32 = [1, 1]; dimension 1 is whole: threads 32..63.
exoam.proc @warp() {
  exoam.loop %w in (1, 2) {
    // expected-note @below {{the mutate was recorded here by {task 0: 32..63}}}
    exoam.record_mutate fully_ordered convergent @x[0] on cuda_in_order_ram_qual threads gpu[4 (%w, 32, 0), 32]
  }
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[128 (_, 1, 40)]
  // expected-error @below {{to thread (task 0, thread 0) of the checking threads {task 0: 0..31}}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 32, 0), 32]
}

// -----

// A cluster of 2 CTAs of 128 threads: CTA %c, thread %t is natural thread
// 128 * c + t (Def. 4.1).
exoam.proc @cluster() {
  exoam.loop %c in (1, 2) {
    exoam.loop %t in (5, 6) {
      // expected-note @below {{recorded here by {task 0: 133}}}
      exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[2 (%c, 128, 0), 128 (%t, 1, 0)]
    }
  }
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[256 (_, 1, 133)]
  // expected-error @below {{to thread (task 0, thread 5)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[2, 128 (_, 1, 5)]
}

// -----

// Thread 2 of every CTA of the cluster: two intervals of natural indices.
exoam.proc @strided() {
  // expected-note @below {{recorded here by {task 0: 2, 130}}}
  exoam.record_mutate fully_ordered convergent @x[0] on cuda_in_order_ram_qual threads gpu[2, 128 (_, 1, 2)]
  // expected-error @below {{to thread (task 0, thread 0)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[256 (_, 1, 0)]
}

// -----

// A mapping that leaves its dimension is an error of the program.
exoam.proc @out_of_range() {
  exoam.loop %t in (0, 5) {
    // expected-error @below {{thread mapping selects coordinates 4..4 of tiling dimension 0, which has extent 4}}
    exoam.record_read fully_ordered @x[%t] on cuda_in_order_ram_qual threads gpu[4 (%t, 1, 0)]
  }
}
