"""How `pytest -n N` (three in `make test`) hands the tests to its workers: the groups
of tests that share one expensive fixture go whole to one worker and start first, then
the other tests in the collection's order, the browser tests last.

The longest single tests are not moved to the front: in a run that did so, two server
tests on PostgreSQL (which share one database per worker) failed, test_handover.py
finding two games to drive instead of one and test_ratings_cluster.py's game not ending
in 3 000 moves; the order they pass in is kept until that is understood.

pytest-xdist's `--dist loadgroup` keeps a group together by appending `@group` to each
grouped test's node id in the worker (`item._nodeid`), which pytest 9.2 no longer reads
(the id lives in `item._id`): the groups fell apart, the wheel's tests ran on both
workers and each built the compiled wheel, in the same checkout, late in the run. Here the
controller knows the groups by their modules instead, and the collection checks that every
`xdist_group` mark is one of them.
"""

from __future__ import annotations

import pytest

GROUPS = {
    "tests/test_package.py": "wheel",
    "tests/test_club_guide.py": "wheel",
    "tests/server/test_lifetime.py": "lifetime",
}
"""The modules whose tests run on one worker, with the group's name (their
`xdist_group` mark): a group goes whole to the worker that takes it."""

LAST = "tests/web/"
"""The browser tests run after all others in their worker: Playwright keeps an event
loop running in its test process from its first test on, and a test that calls
`asyncio.run` must come before it."""


def group_of(nodeid: str) -> str | None:
    if "@" in nodeid and nodeid.rfind("@") > nodeid.rfind("]"):
        return nodeid.split("@")[-1]  # an xdist that can still rename the test
    return GROUPS.get(nodeid.split("::", 1)[0])


def rank(nodeid: str) -> int:
    if group_of(nodeid) is not None:
        return 0
    return 2 if nodeid.startswith(LAST) else 1


def order(items: list[pytest.Item]) -> None:
    """Sort the collection (the controller hands out work in its order) and check the
    groups' marks against `GROUPS`."""
    for item in items:
        marks = {str(m.args[0]) for m in item.iter_markers("xdist_group") if m.args}
        module = item.nodeid.split("::", 1)[0]
        if marks != ({GROUPS[module]} if module in GROUPS else set()):
            raise pytest.UsageError(
                f"{item.nodeid}: xdist_group {sorted(marks)} is not its module's in "
                "tests/scheduling.py GROUPS"
            )
    items.sort(key=lambda item: rank(item.nodeid))  # stable: each part keeps its order


def scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadgroup` with the groups known by their modules. Units of several tests
    (the groups) are handed out first, then the single tests in the collection's order."""
    from xdist.scheduler import LoadGroupScheduling

    made = LoadGroupScheduling(config, log)
    made._split_scope = lambda nodeid: group_of(nodeid) or nodeid
    return made
