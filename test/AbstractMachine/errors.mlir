// RUN: exogpu-opt %s -split-input-file -exoam-interpret="N=4,flag=true" -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret="N=4,flag=true,engine=reference" -verify-diagnostics

// Statements that are ill-formed under the given control values stop the
// abstract machine with an error at the statement.

exoam.proc @arrive_no_home(%N: index) {
  exoam.alloc barrier @bar[4]
  // expected-error @below {{the barrier accesses of an arrive must share exactly one element, the home barrier}}
  exoam.arrive pre = [] >> @bar[0 to 1] threads gpu[4]
}

// -----

exoam.proc @arrive_disjoint(%N: index) {
  exoam.alloc barrier @bar[4]
  // expected-error @below {{must share exactly one element}}
  exoam.arrive pre = [] >> @bar[0] >> @bar[%N - 3] threads gpu[4]
}

// -----

exoam.proc @await_window(%N: index) {
  exoam.alloc barrier @bar[4]
  // expected-error @below {{an await must access exactly one barrier element}}
  exoam.await @bar[0 to %N - 1] full = [] temp = [] n = 0 threads gpu[4]
}

// -----

// expected-error @below {{exoam-interpret: no value for parameter 'M' (pass M=...)}}
exoam.proc @unbound(%M: index) {
}

// -----

// The bool parameter takes `true`.
exoam.proc @bool_param(%flag: i1, %N: index) {
  exoam.if %flag {
    exoam.alloc barrier @bar[4]
    exoam.arrive pre = [] >> @bar[0] threads gpu[4]
    // expected-error @below {{check_barrier failed on @bar[0]: arrive count 1 differs from await count 0}}
    exoam.check_barrier @bar[0 to %N - 1]
  }
}

// -----

// Ranges with hi < lo denote no element (Fig. 6 W-RANGE).
exoam.proc @empty_range(%N: index) {
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.check_mutates fully_ordered @x[%N to 0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}
