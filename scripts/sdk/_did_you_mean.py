# A misspelt keyword argument answered with the nearest valid one. Written into the generated package by
# scripts/sdk.ts (`npm run sdk`), which also makes the package's __init__.py call `install`; its source is
# scripts/sdk/_did_you_mean.py: edit it there.
#
# The generated classes and functions take their arguments as Python keywords, and a misspelt one fails with
# Python's own TypeError ("_internal_init() got an unexpected keyword argument 'sampling_rat'"), which names
# neither the resource nor the argument meant. Each resource class, each `...Args` class and each look-up
# (`get_...`) of the package is wrapped so that a keyword it does not take is refused first, still as a
# TypeError, naming the nearest one it takes (the nearest by edit distance, without regard to case, as the
# provider names the nearest key of a dict: provider/kit/spelling.ts) and every one it takes.
import functools
import inspect
import sys
import typing

import pulumi


def _distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions, one each."""
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        nxt = [i]
        for j in range(1, len(b) + 1):
            nxt.append(min(row[j] + 1, nxt[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1])))
        row = nxt
    return row[len(b)]


def _nearest(key: str, candidates: typing.Sequence[str]) -> str:
    """The candidate nearest to `key` (the first of equals), compared without regard to case."""
    return min(candidates, key=lambda c: _distance(key.lower(), c.lower()))


def _keywords(fn: typing.Callable[..., typing.Any], *skip: str) -> typing.List[str]:
    """The keyword arguments `fn` takes, in its order, but `skip` and the private ones (`__props__`)."""
    params = inspect.signature(fn).parameters.values()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in params if p.kind in kinds and p.name not in skip and not p.name.startswith("_")]


def _unknown(what: str, takes: typing.List[str], kwargs: typing.Dict[str, typing.Any]) -> typing.Optional[TypeError]:
    """The TypeError for the first keyword of `kwargs` that `what` does not take (`args` aside: a resource's `...Args`)."""
    for key in kwargs:
        if key not in takes and key != "args" and not key.startswith("_"):
            return TypeError(
                f"{what}() got an unexpected keyword argument '{key}': did you mean '{_nearest(key, takes)}'? "
                f"({what} takes {', '.join(takes)})"
            )
    return None


def _guard_class(cls: type, takes: typing.List[str]) -> None:
    """Makes `cls(...)` refuse a keyword it does not take, naming the nearest."""
    init = cls.__init__

    @functools.wraps(init)
    def guarded(self, *args, **kwargs):
        refused = _unknown(cls.__name__, takes, kwargs)
        if refused:
            raise refused
        init(self, *args, **kwargs)

    setattr(cls, "__init__", guarded)


def _guard_function(fn: typing.Callable[..., typing.Any]) -> typing.Callable[..., typing.Any]:
    """`fn`, refusing a keyword it does not take, naming the nearest."""
    takes = _keywords(fn)

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        refused = _unknown(fn.__name__, takes, kwargs)
        if refused:
            raise refused
        return fn(*args, **kwargs)

    return guarded


def install(namespace: typing.Dict[str, typing.Any]) -> None:
    """Guards the resources, `...Args` classes and look-ups of the package whose namespace this is."""
    package = namespace["__name__"]
    for name, value in list(namespace.items()):
        if not getattr(value, "__module__", "").startswith(package + "."):
            continue
        if inspect.isclass(value) and issubclass(value, pulumi.Resource):
            # `Deployment(name, args, opts)` or `Deployment(name, opts=..., **arguments)`: the arguments are
            # those of `_internal_init`, where the generated `__init__` sends them.
            _guard_class(value, _keywords(value._internal_init, "resource_name", "opts") + ["opts"])
        elif inspect.isclass(value) and name.endswith("Args"):
            _guard_class(value, _keywords(value.__init__, "self"))
        elif inspect.isfunction(value) and name.startswith("get_"):
            guarded = _guard_function(value)
            namespace[name] = guarded
            setattr(sys.modules[value.__module__], name, guarded)
