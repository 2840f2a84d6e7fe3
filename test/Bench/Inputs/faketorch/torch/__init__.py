"""A stand-in for PyTorch in test/Bench/attention.test and device-all.test:
the few tensor operations bench/attention.py's run stage and the GPU
bundle's float64 references (utils/gpuval/compare.py) use, on numpy arrays
in host memory (float32 storage whatever the dtype, float64 from numpy), a
fake CUDA device, stream and events (each event's time is the number of
events recorded before it), so the harnesses' plumbing runs without PyTorch
or a GPU."""

import numpy as np

__version__ = "0.0-stand-in"
bfloat16, float32, float64 = "bfloat16", "float32", "float64"
bool = "bool"  # noqa: A001  (torch.bool)
_rng = [np.random.default_rng(0)]


class Tensor:
    def __init__(self, array, dtype=float32):
        self.array = np.require(np.asarray(array), requirements="C")
        self.dtype = dtype

    def __getitem__(self, index):
        return Tensor(self.array[index], self.dtype)

    def float(self):
        return Tensor(self.array.astype(np.float32), float32)

    def double(self):
        return Tensor(self.array.astype(np.float64), float64)

    @property
    def T(self):
        return Tensor(self.array.T, self.dtype)

    def __matmul__(self, other):
        return Tensor(self.array @ other.array, self.dtype)

    def __mul__(self, other):
        return Tensor(self.array * other, self.dtype)

    def __sub__(self, other):
        return Tensor(self.array - other.array, self.dtype)

    def __truediv__(self, other):
        other = other.array if isinstance(other, Tensor) else other
        return Tensor(self.array / other, self.dtype)

    def zero_(self):
        self.array.fill(0)
        return self

    def cuda(self):
        return self

    def cpu(self):
        return self

    def to(self, device):
        return self

    def numpy(self):
        return self.array

    def __float__(self):
        return float(self.array)

    def norm(self):
        return Tensor(np.linalg.norm(self.array.ravel()), self.dtype)

    def masked_fill(self, mask, value):
        return Tensor(np.where(mask.array, value, self.array), self.dtype)

    def triu(self, diagonal):
        return Tensor(np.triu(self.array, diagonal), self.dtype)

    def data_ptr(self):
        return self.array.ctypes.data


def manual_seed(seed):
    _rng[0] = np.random.default_rng(seed)


def randn(size, device=None, dtype=float32):
    return Tensor(_rng[0].standard_normal(size).astype(np.float32), dtype)


def from_numpy(array):
    return Tensor(array, str(array.dtype))


def ones(*size, device=None, dtype=float32):
    return Tensor(np.ones(size, np.bool_ if dtype == bool else np.float32),
                  dtype)


def empty(size, device=None, dtype=float32):
    return Tensor(np.zeros(size, np.float32), dtype)


def empty_like(tensor):
    return empty(tensor.array.shape, dtype=tensor.dtype)


def ones_like(tensor, dtype=float32):
    return Tensor(np.ones(tensor.array.shape, np.bool_), dtype)


def logsumexp(tensor, dim):
    a = tensor.array
    m = a.max(axis=dim, keepdims=True)
    return Tensor((m + np.log(np.exp(a - m).sum(axis=dim, keepdims=True)))
                  .squeeze(dim), tensor.dtype)


def softmax(tensor, dim):
    a = tensor.array
    e = np.exp(a - a.max(axis=dim, keepdims=True))
    return Tensor(e / e.sum(axis=dim, keepdims=True), tensor.dtype)


def stack(tensors):
    return Tensor(np.stack([t.array for t in tensors]), tensors[0].dtype)


from . import cuda, nn  # noqa: E402,F401  (nn uses Tensor)
