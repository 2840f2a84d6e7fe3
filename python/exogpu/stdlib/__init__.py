"""The instruction libraries: `from exogpu.stdlib import sm90a`.

Each name is the instruction library of that name (`stdlib/sm90a.mlir`,
`stdlib/sm80.mlir`; docs/stdlib.md lists their instructions). Importing
one into a module declares it for the module's procs: their calls resolve
bare instruction names against it, and the modules they emit import it.
"""

from ..frontend.libraries import Library

_LOADED = {}


def __getattr__(name: str) -> Library:
    if name.startswith("__"):
        raise AttributeError(name)
    if name not in _LOADED:
        library = Library(name)
        try:
            library.path
        except FileNotFoundError as missing:
            raise ImportError(str(missing)) from None
        _LOADED[name] = library
    return _LOADED[name]
