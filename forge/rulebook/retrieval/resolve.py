"""Which rules may be injected, and how a conflict is settled at injection time. Pure functions.

Eligibility: a rule may be injected if it is in scope (its memory sources are in the querying memory,
or a human taught it, or no scope is set) and it is active, or it is superseded but none of the rules
that superseded it is itself eligible (an instance whose memory predates the newer rule still gets the
older one). A withdrawn rule is never eligible.

Conflicts are settled only among the rules that apply to the current context (scope before
resolution: a rule that does not apply is no party to anything). Two applying rules are in conflict
when maintenance joined them by CONFLICTS_WITH and, if both have a meaning, their actions disagree in
this context (`related`, from retrieve.py). Each connected group is settled by PRECEDENCE, the one
place the order is written (`forge rulebook query` prints it).

Per host, the exception over the general rule: a party whose trigger strictly contains the winner's (the
winner is its exception) and that disagrees here with no other party is kept too, after the winner, when it
acts on a host the winner does not dispute (`undisputed`, from retrieve.py): "restore compromised User
hosts" still speaks for User4 where an exception for User0 won (both User0 and User4 compromised), also when one
teacher taught both (maintenance flags one teacher's nested rules too). A loser that disagrees here only with
other losers (not with the winner, nor with what is kept beside it, nor with another such loser) sides with the
winner and is kept after it (`allies`). Any other loser is left out whole: a rule is injected as its text, which
cannot be cut down to the hosts it would win on, so a loser that is not the general rule of its winner's
exception would speak for the disputed host again. A party kept without a compiled meaning takes part by what its
words forbid or plainly order (meaning.Meaning.said: "do not restore User3", "restore compromised user hosts"), never
by a guess at its scope; with no such words, its scope is unknown and specificity does not decide.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Optional, Sequence

from forge.rulebook.language.meaning import disputing, meaning_of, standing_exception
from forge.rulebook.model import RuleRecord, RuleStatus, actor_kind
from forge.rulebook.language.predicate import Predicate, implies, positive_hosts

# How rules that apply to one context and disagree there are settled, first tier first.
PRECEDENCE: tuple[tuple[str, str], ...] = (
    ("own actor", "the querying actor's own rule, if it is a party (several of its own: the next tiers among them)"),
    ("specificity", "the narrower rule: its trigger (for a rule kept without a compiled meaning, where its words "
                    "say it speaks) implies every other party's and not the reverse, or, kept without a compiled "
                    "meaning, its words forbid a verb on fewer hosts than every other party's trigger can match "
                    "(an exception over the general rule, which still speaks for the hosts the "
                    "exception does not dispute here, whoever taught the two); within one teacher, also a prohibition "
                    "on named hosts in any state against an order on more hosts (meaning.standing_exception); one "
                    "teacher's other rules that disagree without one trigger inside the other are both injected, "
                    "the narrower first"),
    ("support", "the rule with strictly the most supporting evidence (summed weights)"),
    ("recency", "only within one teacher: a later rule on an equivalent trigger, or one whose words say it "
                "revises what the teacher said before about the same hosts, replaced the earlier one when it was "
                "taught (curation.py), so no two such rules are ever both in force"),
    ("abstain", "otherwise none of them is injected (a party that disagrees only with parties that lost "
                "sides with the winner, and is injected after it, under every tier but this one)"),
)


@dataclass(frozen=True)
class Scope:
    """The memory a query speaks for: rules compiled from these memory items, plus human corrections."""

    sources: frozenset[str]
    include_users: bool = True
    # Rule ids taken out of the book for this query: an ablation asks what the agent does without them,
    # against *no rule*: a withheld rule still keeps what it superseded out of force (issue 18), so the
    # ablation never measures a rule against its predecessor.
    withheld: frozenset[str] = frozenset()

    def covers(self, record: RuleRecord) -> bool:
        if self.include_users and any(actor_kind(a) == "user" for a in record.actors):
            return True
        return bool(self.sources.intersection(record.sources))


def eligible_rules(records: Mapping[str, RuleRecord], scope: Optional[Scope] = None) -> set[str]:
    covered = {rid for rid, r in records.items() if r.status != RuleStatus.WITHDRAWN and (scope is None or scope.covers(r))}
    withheld = frozenset() if scope is None else scope.withheld & covered
    in_scope = covered - withheld
    superseders: dict[str, list[str]] = {}
    for rid in covered:  # withheld rules too: withholding takes a rule out, it does not undo its supersession
        for old in records[rid].supersedes:
            superseders.setdefault(old, []).append(rid)
    memo: dict[str, bool] = {}

    def ok(rid: str, visiting: frozenset[str]) -> bool:
        if rid in memo:
            return memo[rid]
        if rid in withheld:
            return True  # in force for supersession only; never injected (filtered below)
        if rid not in in_scope:
            return False
        record = records[rid]
        if record.active:
            result = True
        else:  # superseded: eligible unless a newer eligible rule took its place
            result = not any(holds(newer, visiting | {rid}) for newer in superseders.get(rid, ()) if newer not in visiting)
        memo[rid] = result
        return result

    def holds(newer: str, visiting: frozenset[str]) -> bool:
        # (r38g) A newer rule keeps the older one out while it is eligible, and while it is itself replaced in turn by
        # a newer one in force (a revision of a revision): only a rule withdrawn or out of scope lets the older back.
        return ok(newer, visiting) or (newer in in_scope and not records[newer].active)

    return {rid for rid in in_scope if ok(rid, frozenset())}


@dataclass(frozen=True)
class Decision:
    """How one conflict was settled: `tier` is `actor`, `specificity`, `majority` or `abstain` (PRECEDENCE), or
    `unknown` (every other party's condition is unknown here, and none of them would win: `_decided`);
    `elsewhere`: the parties kept for the hosts the winner (their exception) does not dispute; `allies`: the
    parties kept because they disagree here only with parties that lost."""

    members: tuple[str, ...]
    winner: Optional[str]
    tier: str
    detail: str
    elsewhere: tuple[str, ...] = ()
    allies: tuple[str, ...] = ()


Related = Callable[[str, str], bool]
# Whether a rule, in this context, acts on a host none of the given parties disagrees with it about.
Undisputed = Callable[[str, Sequence[str]], bool]


def conflict_component(rule_id: str, records: Mapping[str, RuleRecord], eligible: set[str],
                       related: Optional[Related] = None) -> tuple[str, ...]:
    """The eligible rules reachable from `rule_id` over CONFLICTS_WITH edges (that `related` confirms),
    sorted. Maintenance always writes the edge both ways, so following outgoing edges reaches the whole
    group (without scanning the book: this runs on every injection)."""
    seen = {rule_id}
    frontier = [rule_id]
    while frontier:
        here = frontier.pop()
        for nxt in records[here].conflicts_with:
            if nxt in eligible and nxt not in seen and (related is None or related(here, nxt)):
                seen.add(nxt)
                frontier.append(nxt)
    return tuple(sorted(seen))


def narrowest(members: Sequence[str], records: Mapping[str, RuleRecord]) -> Optional[str]:
    """The member whose trigger implies every other member's, strictly (None if there is none); or the one
    semantic member whose words forbid a verb on fewer hosts than every other member's trigger can match (an
    exception kept without a compiled meaning: `exception_in_words`)."""
    triggers: dict[str, Optional[Predicate]] = {rid: _scope(records[rid]) for rid in members}
    if any(p is None for p in triggers.values()):
        return None  # a party whose scope is not known, not even by its words
    for rid, mine in triggers.items():
        others = [p for other, p in triggers.items() if other != rid]
        if others and all(implies(mine, p) and not implies(p, mine) for p in others):
            return rid
    standing = [rid for rid in members if all(_standing_over(records[rid], records[other]) for other in members if other != rid)]
    if len(standing) == 1:
        return standing[0]
    if any(meaning_of(records[rid]).semantic for rid in members):
        return exception_in_words(members, records)
    return None


def _standing_over(narrow: RuleRecord, broad: RuleRecord) -> bool:
    """One teacher's standing prohibition on named hosts against their own order on more hosts: the exception.
    Between two teachers it is not: whose word stands there is for the other tiers (own actor, support)."""
    return set(narrow.actors) == set(broad.actors) and standing_exception(disputing(meaning_of(narrow)) or meaning_of(narrow),
                                                                         disputing(meaning_of(broad)) or meaning_of(broad))


def _scope(record: RuleRecord) -> Optional[Predicate]:
    """Where a rule speaks: its trigger, or for a rule kept semantic, where its words say it does (Meaning.said)."""
    said = disputing(meaning_of(record))
    return None if said is None else said.when


def exception_in_words(members: Sequence[str], records: Mapping[str, RuleRecord]) -> Optional[str]:
    """The one semantic member whose words forbid a verb on named hosts (meaning.Meaning.said) that are strictly
    fewer than the hosts every other member's trigger can match, every other member having a trigger: "Do not
    restore User3" against "Restore any user host that shows a privileged compromise". None otherwise."""
    semantic = [rid for rid in members if meaning_of(records[rid]).semantic]
    if len(semantic) != 1:
        return None
    said = meaning_of(records[semantic[0]]).said
    others = [meaning_of(records[rid]).when for rid in members if rid != semantic[0]]
    if said is None or not others:
        return None
    mine = positive_hosts(said.when)
    return semantic[0] if all(mine < positive_hosts(p) for p in others) else None


def _narrower(narrow: RuleRecord, broad: RuleRecord) -> bool:
    """Whether `narrow` is an exception to `broad`: its trigger strictly inside the other's, or (kept semantic)
    its words forbid on strictly fewer hosts than the other's trigger can match."""
    mine, theirs = _scope(narrow), _scope(broad)
    if mine is None or theirs is None:
        return False
    if implies(mine, theirs) and not implies(theirs, mine) or _standing_over(narrow, broad):
        return True
    return meaning_of(narrow).semantic and positive_hosts(mine) < positive_hosts(theirs)


def exceptions_apart(members: Sequence[str], records: Mapping[str, RuleRecord]) -> tuple[str, ...]:
    """(r33m) The parties that are each an exception to one broad party and disagree with no other exception ("restore
    every user host" against "never restore User0" and "User2: a Remove, not a Restore"): no one of them is the
    narrowest, yet each outranks the broad rule where it speaks. Empty unless the group is so made."""
    for broad in members:
        others = [rid for rid in members if rid != broad]
        if len(others) > 1 and all(_narrower(records[rid], records[broad]) for rid in others) \
                and not any(o in records[rid].conflicts_with for rid in others for o in others if o != rid):
            return tuple(others)
    return ()


def settle(members: Sequence[str], records: Mapping[str, RuleRecord], actor: Optional[str]) -> Decision:
    members = tuple(sorted(members))
    members_for_majority = list(members)
    if actor is not None:
        own = [rid for rid in members if actor in records[rid].actors]
        if len(own) == 1:
            return Decision(members, own[0], "actor", f"{actor} is a party")
        if len(own) > 1:  # the actor backs several (only after a restore): the next tiers among them
            members_for_majority = own
    narrow = narrowest(members_for_majority, records)
    if narrow is not None:
        return Decision(members, narrow, "specificity", "its trigger is the narrowest")
    apart = exceptions_apart(members_for_majority, records)
    if apart:  # (the other exceptions are kept beside it as `allies`: they disagree with none of the rules kept)
        return Decision(members, apart[0], "specificity", "each party but one is an exception to that one, on hosts of its own")
    support = sorted(((records[rid].support, rid) for rid in members_for_majority), reverse=True)
    if len(support) == 1 or support[0][0] > support[1][0]:
        return Decision(members, support[0][1], "majority",
                        f"support {support[0][0]} vs {support[1][0] if len(support) > 1 else 0}")
    return Decision(members, None, "abstain", f"tied at support {support[0][0]}")


def general_rules_kept(decision: Decision, records: Mapping[str, RuleRecord], related: Optional[Related],
                       undisputed: Undisputed, unknown: Sequence[str] = ()) -> tuple[str, ...]:
    """The losers a winner leaves in force for other hosts: each whose trigger strictly contains the winner's,
    that disagrees with no party but the winner here, and that acts on a host the winner does not dispute, nor an
    exception to it whose condition is unknown here (`unknown`: r33h, "never restore User1" unread beside "restore
    each owned user box" and "for User2 we Remove and skip any Restore": the general rule spoke for User1 again)."""
    if decision.winner is None:
        return ()
    kept = []
    for rid in decision.members:
        if rid == decision.winner or not _narrower(records[decision.winner], records[rid]):
            continue
        rivals = [o for o in records[rid].conflicts_with if o in decision.members and o not in (rid, decision.winner)]
        # (r39g) a rival that is another exception to it, as the winner is ("never restore User0" won, "for User4 a
        # Remove, not a Restore" beside it, "restore each owned user box" the general rule), takes the hosts it disputes
        # as the winner does: the general rule still speaks for a third owned user host (it was dropped)
        apart = [o for o in rivals if _narrower(records[o], records[rid])]
        if any(related is None or related(rid, o) for o in rivals if o not in apart):
            continue
        exceptions = [u for u in unknown if u != rid and _narrower(records[u], records[rid])
                      and (related is None or related(rid, u))]
        if undisputed(rid, (decision.winner, *apart, *exceptions)):
            kept.append(rid)
    return tuple(kept)


def allies(decision: Decision, records: Mapping[str, RuleRecord], related: Optional[Related]) -> tuple[str, ...]:
    """The losers that disagree here with no rule the decision keeps (the winner, the general rules it leaves in
    force) nor with one another: they were in the group only for disagreeing with a party that lost ("restore
    Enterprise1 when it is rooted" beside the winner "restore Enterprise1 when it is compromised", both against a
    "stop restoring Enterprise1" that lost). Kept after the winner; none when the resolution abstains."""
    if decision.winner is None:
        return ()
    kept = {decision.winner, *decision.elsewhere}

    def against(a: str, b: str) -> bool:
        # (r39g: an exception to a general rule kept for other hosts is no rival of it, `general_rules_kept`)
        if b in decision.elsewhere and _narrower(records[a], records[b]):
            return False
        return b in records[a].conflicts_with and (related is None or related(a, b))
    candidates = [rid for rid in decision.members if rid not in kept and not any(against(rid, k) for k in kept)]
    return tuple(rid for rid in candidates if not any(against(rid, other) for other in candidates if other != rid))


def _decided(members: Sequence[str], records: Mapping[str, RuleRecord], actor: Optional[str],
             unknown: frozenset[str] | set[str]) -> Decision:
    """The settlement of a group with parties whose condition is unknown here: where one of them wins outright (its
    teacher asks, it is the narrower, it has the most support), the rules it outranks are not kept (the winner itself
    is not injected: `resolve_conflicts`); otherwise the group is settled among the parties that apply, as if the
    unknown ones were not there (an unknown party never makes the others abstain)."""
    decision = settle(members, records, actor)
    present = tuple(rid for rid in members if rid not in unknown)
    if decision.winner in unknown:
        return replace(decision, detail=f"{decision.detail}; its condition is unknown here: it is not injected, nor are "
                                        "the rules it outranks")
    if len(present) == len(members):
        return decision
    if len(present) > 1:
        return settle(present, records, actor)
    return Decision(tuple(sorted(members)), present[0], "unknown", "the only party whose condition is known here")


def resolve_conflicts(
    selected: Iterable[str],
    records: Mapping[str, RuleRecord],
    eligible: Iterable[str],
    actor: Optional[str],
    limit: Optional[int] = None,
    related: Optional[Related] = None,
    undisputed: Optional[Undisputed] = None,
    unknown: frozenset[str] | set[str] = frozenset(),
) -> tuple[list[str], list[Decision]]:
    """`selected` (best first) with every conflict settled: each conflict group is replaced by its
    winner, at the place of its first selected member, or dropped when the resolution abstains; with
    `undisputed` (the context's hosts), the winner is followed by the general rules it is an exception to
    that still speak for other hosts (`general_rules_kept`). With `limit`, stops once that many rules are
    kept (later conflicts cannot change them). `unknown`: eligible parties whose condition is unknown in this context,
    settled like the rest but never kept (a rule they would outrank, or tie with, is not kept either)."""
    eligible = eligible if isinstance(eligible, (set, frozenset)) else set(eligible)
    kept: list[str] = []
    decisions: list[Decision] = []
    settled: set[str] = set()
    for rid in selected:
        if limit is not None and len(kept) >= limit:
            break
        if rid in settled:
            continue
        members = conflict_component(rid, records, eligible, related)
        settled.update(members)
        if len(members) == 1:
            kept.append(rid)
            continue
        decision = _decided(members, records, actor, unknown)
        if undisputed is not None:
            decision = replace(decision, elsewhere=general_rules_kept(decision, records, related, undisputed,
                                                                      [u for u in members if u in unknown]))
        decision = replace(decision, allies=allies(decision, records, related))
        decisions.append(decision)
        for winner in (decision.winner, *decision.elsewhere, *decision.allies):
            if winner is not None and winner not in kept and winner not in unknown:
                kept.append(winner)
    return kept, decisions


def narrower_first(kept: Sequence[str], triggers: Mapping[str, Optional[Predicate]]) -> list[str]:
    """`kept` with each rule placed before any rule whose trigger strictly contains its own (the
    specificity tier for one teacher's rules that are not nested, which are injected together); otherwise in order."""
    out: list[str] = []
    for rid in kept:
        mine = triggers.get(rid)
        position = len(out)
        if mine is not None:
            for index, other in enumerate(out):
                theirs = triggers.get(other)
                if theirs is not None and implies(mine, theirs) and not implies(theirs, mine):
                    position = index
                    break
        out.insert(position, rid)
    return out
