// RUN: exogpu-opt %s -split-input-file -verify-diagnostics

// Statements live in procs, loops and guards.
// expected-error @below {{expects parent op to be one of 'exoam.proc, exoam.loop, exoam.if'}}
exoam.inc_task_id

// -----

// expected-error @below {{parameters are control values: index or i1, not 'f32'}}
exoam.proc @data_param(%x: f32) {
}

// -----

// expected-error @below {{parameter names must be identifiers}}
exoam.proc @numbered(%0: index) {
}

// -----

// expected-error @below {{has two parameters named 'n'}}
"exoam.proc"() <{argNames = ["n", "n"], sym_name = "dup"}> ({
^bb0(%a: index, %b: index):
}) : () -> ()

// -----

// expected-error @below {{has 1 parameters but 0 parameter names}}
"exoam.proc"() <{argNames = [], sym_name = "count"}> ({
^bb0(%a: index):
}) : () -> ()

// -----

exoam.proc @rank() {
  // expected-note @below {{rank set by this use}}
  exoam.alloc @x[4, 4]
  // expected-error @below {{accesses @x with 1 coordinates, but it has rank 2}}
  exoam.clear_reads @x[0]
}

// -----

exoam.proc @two_kinds() {
  // expected-note @below {{data allocation here}}
  exoam.alloc @x[4]
  // expected-error @below {{allocates @x as a barrier, but it is also allocated as data}}
  exoam.alloc barrier @x[4]
}

// -----

exoam.proc @data_as_barrier() {
  // expected-note @below {{allocated as data here}}
  exoam.alloc @x[4]
  // expected-error @below {{uses data variable @x where a barrier access is expected}}
  exoam.check_barrier @x[0 to 3]
}

// -----

exoam.proc @loop_args() {
  // expected-error @below {{body must have exactly one index argument, the iterator}}
  "exoam.loop"() <{bounds = affine_map<() -> (0, 4)>}> ({
  ^bb0:
  }) : () -> ()
}

// -----

exoam.proc @loop_bounds() {
  // expected-error @below {{bounds must have two results (lo, hi)}}
  "exoam.loop"() <{bounds = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

exoam.proc @loop_dims(%n: index) {
  // expected-error @below {{loop bounds has 0 dimensions but the op has 1 control operands}}
  "exoam.loop"(%n) <{bounds = affine_map<() -> (0, 4)>}> ({
  ^bb0(%i: index):
  }) : (index) -> ()
}

// -----

exoam.proc @not_quasi_affine(%n: index) {
  // expected-error @below {{loop bounds must be quasi-affine}}
  "exoam.loop"(%n) <{bounds = affine_map<(d0) -> (0, d0 ceildiv 2)>}> ({
  ^bb0(%i: index):
  }) : (index) -> ()
}

// -----

exoam.proc @bool_atom(%n: index) {
  // expected-error @below {{a boolean condition atom must be an i1 value}}
  "exoam.if"(%n) <{condition = #exogpu.cond<(d0) -> (d0), [5]>}> ({
  ^bb0:
  }) : (index) -> ()
}

// -----

exoam.proc @bool_arith(%b: i1) {
  // expected-error @below {{an i1 value cannot be used in arithmetic}}
  "exoam.if"(%b) <{condition = #exogpu.cond<(d0) -> (d0, 2), [1]>}> ({
  ^bb0:
  }) : (i1) -> ()
}

// -----

exoam.proc @if_args() {
  // expected-error @below {{body must not have arguments}}
  "exoam.if"() <{condition = #exogpu.cond<() -> (), [6]>}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

exoam.proc @alloc_range() {
  // expected-error @below {{expected a point coordinate here, not a range}}
  exoam.alloc @x[0 to 3]
}

// -----

exoam.proc @alloc_range_generic() {
  // expected-error @below {{coordinates of an allocation are its extents: points, not ranges}}
  "exoam.alloc"() <{target = #exoam.access<"x", [1], () -> (0, 3)>}> : () -> ()
}

// -----

exoam.proc @access_dims(%i: index) {
  // expected-error @below {{clear of @x has 0 dimensions but the op has 1 control operands}}
  "exoam.clear_mutates"(%i) <{target = #exoam.access<"x", [0], () -> (0)>}> : (index) -> ()
}

// -----

exoam.proc @access_quasi_affine(%i: index) {
  // expected-error @below {{check of @x must be quasi-affine}}
  "exoam.check_reads"(%i) <{level = #exoam<vl fully_ordered>, target = #exoam.access<"x", [0], (d0) -> (d0 mod -2)>, threads = #exoam.threads<cpu>, timelines = #exoam.quals<[]>}> : (index) -> ()
}

// -----

exoam.proc @record_barrier_dims(%i: index) {
  // expected-error @below {{barrier @z has 0 dimensions but the op has 1 control operands}}
  "exoam.record_read"(%i) <{atomic = #exoam.quals<[]>, barriers = [#exoam.access<"z", [0], () -> (0)>], level = #exoam<vl fully_ordered>, target = #exoam.access<"x", [0], (d0) -> (d0)>, threads = #exoam.threads<cpu>, timeline = #exogpu<qual_tl cuda_in_order_ram_qual>}> : (index) -> ()
}

// -----

exoam.proc @iterator_range(%i: index) {
  // expected-error @below {{thread mapping iterator 1 is not one of the op's 1 control operands}}
  "exoam.fence"(%i) <{full = #exoam.quals<[]>, pre = #exoam.quals<[]>, temp = #exoam.quals<[]>, threads = #exoam.threads<gpu, [<4, [<iter = 1, linearBox = 1, linearOffset = 0>]>]>}> : (index) -> ()
}

// -----

exoam.proc @arrive_none() {
  // expected-error @below {{arrives at one barrier at least}}
  "exoam.arrive"() <{barriers = [], pre = #exoam.quals<[]>, threads = #exoam.threads<cpu>}> : () -> ()
}

// -----

exoam.proc @arrive_no_barrier() {
  // expected-error @below {{expected '>> @barrier[...]'}}
  exoam.arrive pre = [] threads cpu
}

// -----

exoam.proc @await_dims(%i: index) {
  // expected-error @below {{barrier @z has 0 dimensions but the op has 1 control operands}}
  "exoam.await"(%i) <{barrier = #exoam.access<"z", [0], () -> (0)>, full = #exoam.quals<[]>, n = 0 : i64, temp = #exoam.quals<[]>, threads = #exoam.threads<cpu>}> : (index) -> ()
}

// -----

exoam.proc @check_barrier_dims(%i: index) {
  // expected-error @below {{barrier @z has 0 dimensions but the op has 1 control operands}}
  "exoam.check_barrier"(%i) <{barrier = #exoam.access<"z", [0], () -> (0)>}> : (index) -> ()
}

// -----

exoam.proc @tiling_iterator_expr() {
  exoam.loop %t in (0, 4) {
    // expected-error @below {{a tiling iterator is one control value or '_'}}
    exoam.fence pre = [] full = [] temp = [] threads gpu[4 (%t + 1, 1, 0)]
  }
}

// -----

exoam.proc @tiling_box() {
  // expected-error @below {{tiling operator box must be in [1, 16777216]}}
  exoam.fence pre = [] full = [] temp = [] threads gpu[4 (_, 0, 0)]
}

// -----

exoam.proc @tiling_offset() {
  // expected-error @below {{tiling operator offset must be in [0, 16777216]}}
  exoam.fence pre = [] full = [] temp = [] threads gpu[4 (_, 1, -1)]
}

// -----

// expected-error @below {{tiling operator iterator index must be >= 0}}
#bad = #exoam.tiling_op<iter = -1, linearBox = 1, linearOffset = 0>

// -----

exoam.proc @tiling_extent() {
  // expected-error @below {{tiling dimension extent must be in [1, 16777216]}}
  exoam.fence pre = [] full = [] temp = [] threads gpu[0]
}

// -----

exoam.proc @gpu_no_dims() {
  // expected-error @below {{a gpu thread mapping needs at least one tiling dimension}}
  exoam.fence pre = [] full = [] temp = [] threads gpu[]
}

// -----

exoam.proc @too_many_threads() {
  // expected-error @below {{the tiling describes more than 16777216 threads}}
  exoam.fence pre = [] full = [] temp = [] threads gpu[65536, 65536]
}

// -----

// expected-error @below {{a cpu thread mapping has no tiling}}
#bad = #exoam.threads<cpu, [<4>]>

// -----

exoam.proc @bad_scope() {
  // expected-error @below {{expected 'threads cpu' or 'threads gpu[...]'}}
  exoam.fence pre = [] full = [] temp = [] threads tpu
}

// -----

// expected-error @below {{an access must name a variable}}
#bad = #exoam.access<"", [], () -> ()>

// -----

// expected-error @below {{unknown coordinate kind 2 (0 is a point, 1 a range)}}
#bad = #exoam.access<"x", [2], () -> (0)>

// -----

// expected-error @below {{access of @x needs 2 coordinate expressions}}
#bad = #exoam.access<"x", [1], () -> (0)>

// -----

// expected-error @below {{coordinate expressions have no symbols}}
#bad = #exoam.access<"x", [0], ()[s0] -> (s0)>

// -----

exoam.proc @bad_level() {
  // expected-error @below {{unknown visibility level 'visible'}}
  exoam.check_reads visible @x[] on [] threads cpu
}

// -----

exoam.proc @bad_qual() {
  // expected-error @below {{unknown qualitative timeline 'cuda_in_order_qual'}}
  exoam.record_read fully_ordered @x[] on cuda_in_order_qual threads cpu
}

// -----

exoam.proc @bad_qual_set() {
  // expected-error @below {{unknown qualitative timeline 'cuda_in_order_qual'}}
  exoam.check_reads fully_ordered @x[] on [cuda_in_order_qual] threads cpu
}

// -----

exoam.proc @bad_sync_tl() {
  // expected-error @below {{unknown sync timeline 'cuda_sync'}}
  exoam.fence pre = qfull(cuda_sync) full = [] temp = [] threads cpu
}

// -----

exoam.proc @bad_purpose() {
  // expected-error @below {{unknown check purpose 'bogus' (expected read, write or free)}}
  exoam.check_reads fully_ordered @x[] on [cpu_in_order_qual] for bogus threads cpu
}

// -----

exoam.proc @bounds_other_variable() {
  // expected-error @below {{the access and its window must be of one variable, with one coordinate per dimension each}}
  exoam.check_bounds @x[0] within @y[0 to 3]
}

// -----

exoam.proc @bounds_rank() {
  // expected-error @below {{the access and its window must be of one variable, with one coordinate per dimension each}}
  exoam.check_bounds @x[0, 1] within @x[0 to 3]
}

// -----

exoam.proc @condition_bool_atom(%n: index) {
  // expected-error @below {{a boolean condition atom must be an i1 value}}
  "exoam.check_condition"(%n) <{condition = #exogpu.cond<(d0) -> (d0), [5]>, what = "a precondition"}> : (index) -> ()
}

// -----

exoam.proc @home_other_variable() {
  // expected-error @below {{a home barrier is an element of the variable of the barriers the record observes}}
  exoam.record_mutate unordered @x[0] on tma_to_smem_async_qual >> @bar[0] home @other[0] threads gpu[4]
}

// -----

exoam.proc @home_without_barriers() {
  // expected-error @below {{a home barrier is an element of the variable of the barriers the record observes}}
  exoam.record_mutate unordered @x[0] on tma_to_smem_async_qual home @bar[0] threads gpu[4]
}

// -----

exoam.proc @static_extents_past_capacity() {
  // expected-error @below {{allocates 1024 elements, more than the 1000 that fit in 4000 bytes of shared memory}}
  exoam.alloc @tile[32, 32] capacity 1000 "4000 bytes of shared memory"
}

// -----

exoam.proc @capacity_not_positive() {
  // expected-error @below {{attribute 'capacity' failed to satisfy constraint}}
  exoam.alloc @tile[4] capacity 0 "nothing"
}

// -----

exoam.proc @capacity_without_what(%N: index) {
  // expected-error @below {{a capacity comes with what it is of}}
  "exoam.alloc"(%N) <{capacity = 8 : i64, target = #exoam.access<"tile", [0], (d0) -> (d0)>}> : (index) -> ()
}

// -----

exoam.proc @ring_of_data() {
  // expected-error @below {{only a barrier variable is a ring of mbarriers}}
  exoam.alloc @x[4] ring 2
}

// -----

exoam.proc @ring_not_positive() {
  // expected-error @below {{attribute 'ring' failed to satisfy constraint}}
  exoam.alloc barrier @x[4] ring 0
}

// -----

exoam.proc @complete_none() {
  // expected-error @below {{completes on one barrier at least}}
  "exoam.complete"() <{barriers = [], threads = #exoam.threads<cpu>}> : () -> ()
}

// -----

exoam.proc @complete_home_elsewhere() {
  // expected-error @below {{a home barrier is an element of the variable of the barriers the call completes on}}
  exoam.complete >> @bar[0 to 1] home @other[0] threads gpu[4]
}
