//===- DataOps.td - exogpu assignments and data expressions -*- tablegen -*-===//
//
// `x[c*] = e` and `x[c*] += e` of Fig. 2. The data expression `e` (Fig. 1
// DExpr) lives in the statement's expression region, built from the
// expression ops below and terminated by `exogpu.yield`.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DATA_OPS_TD
#define EXOGPU_DATA_OPS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

/// The precisions of Fig. 10 plus bf16.
def ExoGPU_Scalar : AnyTypeOf<[F16, BF16, F32, F64, I8, UI8, UI16, I32]>;

class ExoGPU_WriteOp<string mnemonic>
    : ExoGPU_Op<mnemonic, [SingleBlock,
                           DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let arguments = (ins ExoGPU_AnyBuffer:$dest, AffineMapAttr:$indices,
                       Variadic<Index>:$ctrl);
  let regions = (region SizedRegion<1>:$value);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The yielded value of the expression region.
    ::mlir::Value getValueExpr();
  }];
}

def ExoGPU_AssignOp : ExoGPU_WriteOp<"assign"> {
  let summary = "write a data expression to a buffer element";
  let description = [{
    `x[c*] = e` (Fig. 2). Indices are point control expressions, one per
    dimension of `x`. Reads in `e` name buffers with point indices; the types
    of the named buffers follow the colon, in order of first appearance.
    `x` is a special window (Fig. 14) only in an instruction body, where the
    write is the sequential meaning of a TMA store (`stdlib/sm90a.mlir`);
    the same holds for `exogpu.reduce`.

    ```mlir
    exogpu.assign %y[%task * 128 + %t] = %acc[] * 2.0
        : f32[?] @CudaGmemLinear, f32 @CudaRmem
    ```
  }];
}

def ExoGPU_ReduceOp : ExoGPU_WriteOp<"reduce"> {
  let summary = "accumulate a data expression into a buffer element";
  let description = [{
    `x[c*] += e` (Fig. 2).

    ```mlir
    exogpu.reduce %acc[] += %A[%i, %j] * %x[%j]
        : f32 @CudaRmem, f32[?, ?] @CudaGmemLinear, f32[?] @CudaGmemLinear
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Expression ops (only inside an assign/reduce expression region)
//===----------------------------------------------------------------------===//

class ExoGPU_ExprOp<string mnemonic, list<Trait> traits = []>
    : ExoGPU_Op<mnemonic, traits # [ParentOneOf<["AssignOp", "ReduceOp"]>]>;

def ExoGPU_ReadOp : ExoGPU_ExprOp<"read",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "read one buffer element inside a data expression";
  let description = [{
    `x[c*]` in a data expression (Fig. 1). Printed inline by the enclosing
    statement.

    ```mlir
    %0 = exogpu.read %A[(d0, d1) -> (d0, d1)](%i, %j)
        : !exogpu.tensor<f32[?, ?] @CudaGmemLinear> -> f32
    ```
  }];
  let arguments = (ins ExoGPU_AnyBuffer:$source, AffineMapAttr:$indices,
                       Variadic<Index>:$ctrl);
  let results = (outs ExoGPU_Scalar:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` `(` $ctrl `)` attr-dict `:` type($source) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def ExoGPU_ConstantOp : ExoGPU_ExprOp<"constant",
    [Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a data literal inside a data expression";
  let description = [{
    A data value `d` (Fig. 1), typed by its context.

    ```mlir
    %0 = exogpu.constant 2.0 : f32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs ExoGPU_Scalar:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
}

class ExoGPU_BinaryOp<string mnemonic, string sym>
    : ExoGPU_ExprOp<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "`e1 " # sym # " e2` in a data expression";
  let description = [{
    Binary data arithmetic of Fig. 1 on operands of one precision.

    ```mlir
    %2 = exogpu.}] # mnemonic # [{ %0, %1 : f32
    ```
  }];
  let arguments = (ins ExoGPU_Scalar:$lhs, ExoGPU_Scalar:$rhs);
  let results = (outs ExoGPU_Scalar:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getSymbol() { return "}] # sym # [{"; }
  }];
}

def ExoGPU_AddOp : ExoGPU_BinaryOp<"add", "+">;
def ExoGPU_SubOp : ExoGPU_BinaryOp<"sub", "-">;
def ExoGPU_MulOp : ExoGPU_BinaryOp<"mul", "*">;
def ExoGPU_DivOp : ExoGPU_BinaryOp<"div", "/">;

def ExoGPU_NegOp : ExoGPU_ExprOp<"neg", [Pure, SameOperandsAndResultType]> {
  let summary = "unary minus in a data expression";
  let description = [{
    ```mlir
    %1 = exogpu.neg %0 : f32
    ```
  }];
  let arguments = (ins ExoGPU_Scalar:$operand);
  let results = (outs ExoGPU_Scalar:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Functions in data expressions, printed function-style: `max(e1, e2)`,
// `exp2(e)`, `log2(e)` (softmax and log-sum-exp, examples/attention_fwd_sm90a.mlir)
//===----------------------------------------------------------------------===//

def ExoGPU_MaxOp : ExoGPU_ExprOp<"max", [Pure, Commutative,
                                         SameOperandsAndResultType]> {
  let summary = "`max(e1, e2)` in a data expression";
  let description = [{
    The larger of two data values of one precision. A floating-point NaN
    operand yields the other operand (IEEE 754 maxNum, as CUDA's `fmaxf` and
    PTX `max.f32`); integers compare signed or unsigned by their precision.

    ```mlir
    %2 = exogpu.max %0, %1 : f32
    ```
  }];
  let arguments = (ins ExoGPU_Scalar:$lhs, ExoGPU_Scalar:$rhs);
  let results = (outs ExoGPU_Scalar:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

class ExoGPU_UnaryFloatFnOp<string mnemonic, string what>
    : ExoGPU_ExprOp<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "`" # mnemonic # "(e)` in a data expression";
  let description = [{
    The }] # what # [{ of a floating-point data value, rounded once to its
    precision. The CUDA translation prints the accurate library function;
    the fast hardware approximation is an instruction of the standard
    library (`stdlib/sm90a.mlir`).

    ```mlir
    %1 = exogpu.}] # mnemonic # [{ %0 : f32
    ```
  }];
  let arguments = (ins ExoGPU_Scalar:$operand);
  let results = (outs ExoGPU_Scalar:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def ExoGPU_Exp2Op : ExoGPU_UnaryFloatFnOp<"exp2", "base-2 exponential 2^e">;
def ExoGPU_Log2Op : ExoGPU_UnaryFloatFnOp<"log2", "base-2 logarithm">;

def ExoGPU_YieldOp : ExoGPU_ExprOp<"yield", [Pure, Terminator, ReturnLike]> {
  let summary = "the value of a data expression region";
  let description = [{
    ```mlir
    exogpu.yield %2 : f32
    ```
  }];
  let arguments = (ins ExoGPU_Scalar:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // EXOGPU_DATA_OPS_TD
