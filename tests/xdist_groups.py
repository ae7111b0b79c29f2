"""The scheduler make test's workers are handed tests by: pytest-xdist's LoadScopeScheduling with
groups of our own, mended where a worker that dies leaves the run waiting forever.

pytest-xdist 3.8.0 (the newest release) replaces a crashed worker but then can hang: it puts back
on the queue every work unit the dead worker ever had, finished ones too, and a worker handed a unit
with nothing left in it never asks for more (pytest-xdist issues 1323 and 1378); a replacement is
handed one test and waits for a second before it runs it (issue 1327); and the test the worker died
on is run again, taking the next worker down with it (pull request 1371). A CI run of make test met
the first: one worker died at 28% (a segfault), the other finished its tests at 98% and both waited
until the 90-minute limit. tests/test_scheduler.py kills a worker and requires the run to end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdist.scheduler import LoadScopeScheduling


class GroupScheduling(LoadScopeScheduling):
    """One work unit at a time, each test alone except the tests group_of gives one name."""

    def __init__(self, config: Any, log: Any, group_of: Callable[[str], str | None]) -> None:
        super().__init__(config, log)
        self._group_of = group_of

    def _split_scope(self, nodeid: str) -> str:
        return self._group_of(nodeid) or nodeid

    def remove_node(self, node: Any) -> str | None:
        """The node's unfinished tests back at the head of the queue, without the one it died on
        (xdist reports that one failed); None if it had finished them all."""
        workload = self.assigned_work.pop(node)
        unfinished = {scope: [nodeid for nodeid, done in unit.items() if not done] for scope, unit in workload.items()}
        unfinished = {scope: nodeids for scope, nodeids in unfinished.items() if nodeids}
        if not unfinished:
            return None
        # A worker runs its tests in the order it was handed them: the first unfinished one was running.
        crashed = next(iter(unfinished.values())).pop(0)
        for scope, nodeids in reversed(list(unfinished.items())):
            if nodeids:
                self.workqueue[scope] = dict.fromkeys(nodeids, False)
                self.workqueue.move_to_end(scope, last=False)
        for other in self.assigned_work:
            self._reschedule(other)
        return crashed

    def schedule(self) -> None:
        replacing = self.collection is not None
        super().schedule()
        if replacing:
            # A worker runs a test only once it knows the next one (or that there is none): a
            # replacement handed one unit of one test must be handed a second unit, or told to stop.
            for node in self.nodes:
                self._reschedule(node)
