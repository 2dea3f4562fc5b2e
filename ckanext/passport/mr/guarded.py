"""Readers never raise, by construction: the one wrapper every reader entry point runs its work in.

A reader reads text from sites the portal does not control. Each of its findings is a coded problem; an
exception nobody foresaw (a ``RecursionError`` deep in a library, a ``MemoryError``, a bug) must not kill a
fetch consumer, break gather for a whole source or fail a whole site check. :func:`never_raising` turns it
into the reader's own ``*.unreadable`` problem naming the exception's class, logs the traceback for
operators, and makes what the reader returns storable (:mod:`.storable`) as the last net behind the decoder.

Findings are budgeted too: a 10 MB file of unknown rows is one habit of its publisher, not five million
findings to store and show. Each code keeps its first :data:`MAX_PER_CODE` findings, then one ``findings.more``
says how many more there were (a note: the score counts a code once anyway).

A deadline's exception is not the reader's: a signal handler may raise it anywhere (RQ's job timeout, a
test's alarm), and whoever set the deadline must see it.
"""
from __future__ import annotations

import logging
from collections import Counter
from typing import Callable, Iterable, Iterator, TypeVar, Union

from .model import ParseResult, Problem
from .problems import problem
from .storable import replaced_finding, storable_value

log = logging.getLogger(__name__)

MAX_PER_CODE = 20


T = TypeVar("T")
# The reader's problem for an exception, given the exception's class name.
Failed = Callable[[str], Problem]


def never_raising(read: Callable[[], ParseResult[T]], failed: Failed, url: str = "",
                  form: str = "") -> ParseResult[T]:
    """``read()``, or the ``failed`` problem when it raises; its value and problems storable either way."""
    try:
        result = read()
    except Exception as error:  # noqa: BLE001 (the point: nothing a reader raises leaves it)
        return ParseResult(None, [_failure(error, failed, url)], form=form)
    return storable_result(result, url)


def never_raising_stream(items: Iterable[Union[T, Problem]], failed: Failed,
                         url: str = "") -> Iterator[Union[T, Problem]]:
    """A streaming reader's ``items`` as they come, each storable, the problems within budget (:func:`capped`);
    whatever breaks the stream ends it with the ``failed`` problem."""
    budget = _Budget()
    replaced = 0
    try:
        for item in items:
            if not isinstance(item, Problem) or budget.keeps(item):
                storable, count = storable_value(item)
                replaced += count
                yield storable
    except Exception as error:  # noqa: BLE001 (as never_raising)
        yield _failure(error, failed, url)
    yield from budget.more() + replaced_finding(replaced, url)


def capped(problems: Iterable[Problem], limit: int = MAX_PER_CODE) -> list[Problem]:
    """The first ``limit`` findings of each code, in their order, and one ``findings.more`` per code cut."""
    budget = _Budget(limit)
    return [found for found in problems if budget.keeps(found)] + budget.more()


def storable_result(result: ParseResult[T], url: str = "") -> ParseResult[T]:
    """``result`` with its value and problems storable (one finding for what had to be replaced) and its
    findings within budget (:func:`capped`)."""
    value, in_value = storable_value(result.value)
    problems, in_problems = storable_value(capped(result.problems))
    return ParseResult(value, problems + replaced_finding(in_value + in_problems, url), form=result.form,
                       encoding=result.encoding)


def is_deadline(error: BaseException) -> bool:
    """A deadline's exception (``TimeoutError``, a job queue's ``…TimeoutException``), to be passed on."""
    return isinstance(error, TimeoutError) or any(
        kind.__name__.endswith("TimeoutException") for kind in type(error).__mro__)


def _failure(error: Exception, failed: Failed, url: str) -> Problem:
    if is_deadline(error):
        raise error
    log.exception("Reader failed on %s", url or "(no URL)")
    return failed(type(error).__name__)


class _Budget:
    """Counts findings by code: the first ``limit`` of each are kept, the rest said in one finding."""

    def __init__(self, limit: int = MAX_PER_CODE) -> None:
        self.limit = limit
        self.seen: Counter[str] = Counter()
        self.cut: dict[str, Problem] = {}

    def keeps(self, found: Problem) -> bool:
        self.seen[found.code] += 1
        if self.seen[found.code] <= self.limit:
            return True
        self.cut.setdefault(found.code, found)
        return False

    def more(self) -> list[Problem]:
        return [problem("findings.more", url=first.location.url, element=code, kind=code, count=self.seen[code] - self.limit)
                for code, first in self.cut.items()]
