"""torch.cuda for the stand-in: one sm_90 device, one stream, events that
count."""

_recorded = [0]


def is_available():
    return True


def get_device_capability():
    return (9, 0)


def get_device_name():
    return "Stand-in H100"


class _Stream:
    cuda_stream = 0


def current_stream():
    return _Stream()


class Event:
    def __init__(self, enable_timing=False):
        self.time = None

    def record(self):
        _recorded[0] += 1
        self.time = _recorded[0]

    def elapsed_time(self, end):
        return float(end.time - self.time)


def synchronize():
    pass


def empty_cache():
    pass
