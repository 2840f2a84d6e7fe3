// RUN: exogpu-opt %s -split-input-file -exoam-interpret="N=4,flag=true" -verify-diagnostics
// The reference engine would refuse the allocations of 2^63 elements below
// (RunBudget: their states could take more than max-memory), of which it
// touches a few: the largest max-memory lets it run them.
// RUN: exogpu-opt %s -split-input-file -exoam-interpret="N=4,flag=true,engine=reference,max-memory=18446744073709551615" -verify-diagnostics

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

// -----

// Every rule checks its accesses against the extents of the variable's
// latest allocation.
exoam.proc @past_allocation(%N: index) {
  exoam.alloc @x[%N]
  // expected-error @below {{out-of-bounds access: @x[2..4] is outside @x, allocated with extents [4]}}
  exoam.record_read fully_ordered @x[2 to %N] on cuda_in_order_ram_qual threads gpu[4]
}

// -----

exoam.proc @negative_index(%N: index) {
  exoam.alloc barrier @bar[2]
  // expected-error @below {{out-of-bounds access: @bar[-1] is outside @bar, allocated with extents [2]}}
  exoam.await @bar[%N - 5] full = [] temp = [] n = 0 threads gpu[4]
}

// -----

exoam.proc @outside_window(%N: index) {
  exoam.alloc @x[16]
  // expected-error @below {{out-of-bounds access: @x[4..7] is outside @x[0..3], the window of @x it is taken through}}
  exoam.check_bounds @x[%N to %N + 3] within @x[0 to 3]
}

// -----

exoam.proc @condition_false(%N: index, %flag: i1) {
  exoam.check_condition %flag and %N < 8, "a precondition (requires flag and N < 8)"
  // expected-error @below {{a precondition (requires N mod 8 == 0) does not hold: the sequential program is not defined for these values}}
  exoam.check_condition %N mod 8 == 0, "a precondition (requires N mod 8 == 0)"
}

// -----

exoam.proc @home_window(%N: index) {
  exoam.alloc barrier @bar[2]
  // expected-error @below {{the home barrier of a record_mutate must be one element}}
  exoam.record_mutate unordered @x[0] on tma_to_smem_async_qual >> @bar[0] home @bar[0 to 1] threads gpu[4]
}

// -----

// Coordinates and loop bounds are computed with overflow checks: an index
// past int64 is an error, not a wrapped window or an endless loop.
exoam.proc @coordinate_overflow(%N: index) {
  exoam.alloc @x[4]
  // expected-error @below {{a coordinate of the access to @x overflows int64 (or is missing) with these values}}
  exoam.record_read fully_ordered @x[%N + 9223372036854775807] on cuda_in_order_ram_qual threads gpu[4]
}

// -----

exoam.proc @bound_overflow(%N: index) {
  // expected-error @below {{a loop bound overflows int64 with these values}}
  exoam.loop %i in (0, %N + 9223372036854775807) {
  }
}

// -----

// A loop up to the largest int64 runs its one iteration and ends.
exoam.proc @last_index(%N: index) {
  exoam.alloc @x[9223372036854775807]
  exoam.loop %i in (9223372036854775806, 9223372036854775807) {
    // expected-note @below {{the read was recorded here}}
    exoam.record_read fully_ordered @x[%i] on cuda_in_order_ram_qual threads gpu[4]
  }
  // expected-error @below {{check_reads failed on @x[9223372036854775806]}}
  exoam.check_reads temporally_ordered @x[9223372036854775806] on [cuda_in_order_ram_qual] threads gpu[4]
}

// -----

// Barrier elements are walked one by one: a barrier allocation or access
// of more than 2^16 elements is refused.
exoam.proc @huge_barrier(%N: index) {
  // expected-error @below {{the barrier access to @bar names more than 65536 barrier elements}}
  exoam.alloc barrier @bar[2147483647, 2147483647]
}

// -----

// An allocation bounded by its memory (exoam.alloc capacity, from exogpu's
// shared-memory and register limits) whose extents, with N = 4, make more
// elements than fit; its twin at exactly the capacity runs.
exoam.proc @past_capacity(%N: index) {
  // expected-error @below {{the allocation of @tile [4, 4, 2] has more elements than the 31 that fit in 124 bytes of shared memory}}
  exoam.alloc @tile[%N, %N, 2] capacity 31 "124 bytes of shared memory"
}

// -----

exoam.proc @at_capacity(%N: index) {
  exoam.alloc @tile[%N, %N, 2] capacity 32 "128 bytes of shared memory"
  exoam.record_mutate fully_ordered @tile[3, 3, 1] on cuda_in_order_ram_qual threads gpu[4]
}

// -----

exoam.proc @completion_home_window() {
  exoam.alloc barrier @bar[2] ring 1
  // expected-error @below {{the home barrier of a complete must be one element}}
  exoam.complete >> @bar[0 to 1] home @bar[0 to 1] threads gpu[4]
}
