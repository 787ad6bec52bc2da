"""The payloads of the record itself: whose store it is (store/owner.py), the PID namespace
a2a runs in (repo.py), the freeze and its repairs (gate/ledger/guard.py, repairs.py), and the
backups, restores and troubles of the store."""

from __future__ import annotations

from typing import Any

from a2a_tui.kinds import EventKind as K
from a2a_tui.kinds import RecordEvent as R
from a2a_tui.payloads.base import Payload, key, payload


@payload(K.INITIALIZED)
class Initialized(Payload):
    """A store's first event (`a2a init`): the target branch and its head, the store's id, its
    repository, the store it `replaces`; older stores lack the id and the namespace."""

    target_branch: str | None = None
    pid_namespace: str | None = None
    target_head: str | None = None
    root: str | None = None
    store_id: str | None = None
    replaces: str | None = None


@payload(R.STORE_IDENTIFIED)
class StoreIdentified(Payload):
    """An id given to a store from before stores had ids."""

    store_id: str
    root: str
    why: str = ""


@payload(R.PID_NAMESPACE_RECORDED)
class PidNamespaceRecorded(Payload):
    pid_namespace: str
    previous: str | None = None


@payload(R.STORE_TAMPERED)
class StoreTampered(Payload):
    """The store changed outside a2a (gate/ledger/guard.py `StoreProblem`): the gate freezes."""

    seq: int | None = None
    why: str = ""
    what: str | None = None        # chain | projection | ...
    table: str | None = None       # a projection's
    key: list[Any] | None = None
    column: str | None = None


@payload(R.STORE_REPAIRED)
class StoreRepaired(Payload):
    """The freeze lifted: how, and the `store_tampered` payload it ends (`was`)."""

    how: str
    was: dict[str, Any] | None = None


@payload(R.PROJECTIONS_REBUILT)
class ProjectionsRebuilt(Payload):
    reason: str
    tables: list[str] = ()   # type: ignore[assignment]
    first_difference: str | None = None


@payload(R.CHAIN_RESEALED)
class ChainResealed(Payload):
    from_seq: int
    rehashed: int
    reason: str


@payload(R.STORE_RESTORED)
class StoreRestored(Payload):
    """The store put back from a backup (`from`); `previous`: where the replaced one is kept."""

    from_: str = key("from")
    last_seq: int
    previous: str | None = None


@payload(R.STORE_BACKED_UP)
class StoreBackedUp(Payload):
    """A rolling backup (store/rolling.py): where, of which seq, why and how long it took."""

    path: str
    taken: str | None = None
    last_seq: int | None = None
    why: str | None = None
    seconds: float | None = None
    bytes: int | None = None
    keep: int | None = None


@payload(R.STORE_TROUBLE)
class StoreTrouble(Payload):
    """A time the store took no writes (panes/storeguard.py), once it takes them again."""

    code: str
    message: str
    since_ns: int | None = None
    until_ns: int | None = None
    failures: int | None = None


TYPES: tuple[type[Payload], ...] = (
    Initialized, StoreIdentified, PidNamespaceRecorded, StoreTampered, StoreRepaired,
    ProjectionsRebuilt, ChainResealed, StoreRestored, StoreBackedUp, StoreTrouble)
