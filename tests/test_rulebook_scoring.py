"""Retrieval arithmetic: RRF, ranks, the cosine mix, BM25, the situation reader. Pure, no model."""

from __future__ import annotations

import math

import numpy as np
import pytest

from forge.rulebook.language.grammar import parse_rule
from forge.rulebook.retrieval.bm25 import BM25Index, fold, tokenize
from forge.rulebook.retrieval.fusion import mixed_cosine, ranks, rrf
from forge.rulebook.language.meaning import grammar_meaning
from forge.rulebook.language.predicate import holds, parse_predicate
from forge.rulebook.language.situation import read_situation


def test_rrf_is_the_sum_of_reciprocal_ranks_with_k_60():
    r_emb = np.array([1, 2, 3])
    r_bm25 = np.array([3, 1, 0])  # the third document matched no query word
    fused = rrf([r_emb, r_bm25], k=60)
    assert fused[0] == pytest.approx(1 / 61 + 1 / 63)
    assert fused[1] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[2] == pytest.approx(1 / 63)  # no lexical term at all
    assert fused[1] > fused[0] > fused[2]
    assert rrf([np.array([1]), np.array([1])], k=0)[0] == pytest.approx(2.0)
    with pytest.raises(ValueError):
        rrf([r_emb], k=-1)


def test_ranks_start_at_1_break_ties_by_position_and_skip_absent():
    assert ranks(np.array([0.2, 0.9, 0.2, 0.5])).tolist() == [3, 1, 4, 2]
    assert ranks(np.array([0.0, 3.0, 1.0]), present=np.array([False, True, True])).tolist() == [0, 1, 2]


def test_cosine_mix_weights_node_and_accumulated_similarity():
    mixed = mixed_cosine(np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.7)
    assert mixed.tolist() == pytest.approx([0.7, 0.3])
    with pytest.raises(ValueError):
        mixed_cosine(np.array([1.0]), np.array([1.0]), 1.5)


def test_bm25_scores_follow_the_okapi_formula():
    docs = ["restore op_server0 now", "remove user1", "restore user1 restore"]
    index = BM25Index.build(docs, k1=1.2, b=0.75)
    scores = index.scores("Restore Op_Server0")
    n, avgdl = 3, (3 + 2 + 3) / 3

    def weight(tf, df, dl):
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * dl / avgdl))

    restor, server = fold("restore"), "op_server0"
    assert tokenize("Restore Op_Server0") == [restor, server]
    assert scores[0] == pytest.approx(weight(1, 2, 3) + weight(1, 1, 3), rel=1e-5)
    assert scores[1] == 0.0
    assert scores[2] == pytest.approx(weight(2, 2, 3), rel=1e-5)
    assert fold("Compromised".lower()) == fold("compromise") == fold("compromises")
    assert fold("user1") == "user1" and fold("op_host0") == "op_host0"


def test_the_situation_reader_reads_every_context_format():
    planner = ("Step 11 of 30.\nObservation from get_updated_hosts(): Hosts changed since the last step: "
               "Enterprise2 (Activity Exploit, Compromised User)\nAlerts:\nEnterprise0: Activity None, Compromised Privileged\n"
               "Enterprise2: Activity Exploit, Compromised User")
    assert read_situation(planner).by_host == {"Enterprise2": (("Exploit", "User"),), "Enterprise0": (("None", "Privileged"),)}
    assert read_situation("Host Op_Server0: table Activity Scan, Compromised No.\nBaseline: 3 processes").by_host == {
        "Op_Server0": (("Scan", "No"),)}
    quiet = read_situation("Alerts:\nNo host shows activity or compromise.")  # every host stated quiet, none shown
    assert set(quiet.by_host.values()) == {(("None", "No"),)} and quiet.unnamed == frozenset(quiet.by_host)
    when, _ = grammar_meaning(parse_rule("When an Enterprise host shows any compromise, then Restore that host"))
    assert holds(parse_predicate(when), read_situation(planner))
    assert not holds(parse_predicate(when), read_situation(
        "Enterprise1: Activity Scan, Compromised No\nUser1: Activity Exploit, Compromised User"))
