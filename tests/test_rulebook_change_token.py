"""The rulebook's change token: an unchanged SQLite book is not read per call, and a commit made by
another connection, thread or process is seen at the next call."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from forge.memory.model import Provenance
from forge.rulebook.book import Rulebook
from forge.rulebook.store.backends import open_rulebook
from tests.test_rulebook_store import HashEmbedder, lesson

ROOT = Path(__file__).resolve().parents[1]
RULES = ("When User1 shows any compromise, then Restore User1.", "When User2 shows any compromise, then Remove User2.",
         "When User3 shows any compromise, then Analyse User3.")


def teach(spec: str, text: str, item: str) -> None:
    with open_rulebook(spec) as store:
        Rulebook(store, HashEmbedder()).teach([lesson(text, "s/i01", item=item)], Provenance(actor="s/i01"))


def statements_on(store) -> list[str]:
    """The SQL this thread's connection runs from now on."""
    seen: list[str] = []
    store._connection().set_trace_callback(seen.append)
    return seen


def test_an_unchanged_book_is_not_read_again(tmp_path):
    spec = str(tmp_path / "book.db")
    teach(spec, RULES[0], "m1")
    with open_rulebook(spec) as store:
        assert store.book_head() == 1
        seen = statements_on(store)
        for _ in range(5):
            assert store.book_head() == 1
        assert seen and all(s.strip().upper().startswith("PRAGMA DATA_VERSION") for s in seen), seen


def test_a_commit_by_another_connection_is_seen(tmp_path):
    spec = str(tmp_path / "book.db")
    teach(spec, RULES[0], "m1")
    with open_rulebook(spec) as reader:
        assert reader.book_head() == 1
        teach(spec, RULES[1], "m2")  # another store object: another connection
        assert reader.book_head() == 2
        assert len(reader.heads()) == 2


def test_an_own_commit_is_seen(tmp_path):
    spec = str(tmp_path / "book.db")
    with open_rulebook(spec) as store:
        book = Rulebook(store, HashEmbedder())
        assert store.book_head() == 0
        book.teach([lesson(RULES[0], "s/i01", item="m1")], Provenance(actor="s/i01"))
        assert store.book_head() == 1  # PRAGMA data_version does not move for this connection's own commit


def test_a_commit_by_another_thread_of_the_same_store_is_seen(tmp_path):
    spec = str(tmp_path / "book.db")
    teach(spec, RULES[0], "m1")
    with open_rulebook(spec) as store:
        assert store.book_head() == 1
        book = Rulebook(store, HashEmbedder())
        worker = threading.Thread(target=lambda: book.teach([lesson(RULES[1], "s/i01", item="m2")], Provenance(actor="s/i01")))
        worker.start()
        worker.join()
        assert store.book_head() == 2


def test_a_commit_by_another_process_is_seen(tmp_path):
    spec = str(tmp_path / "book.db")
    teach(spec, RULES[0], "m1")
    with open_rulebook(spec) as reader:
        assert reader.book_head() == 1
        script = ("import sys; from tests.test_rulebook_change_token import teach; "
                  f"teach(sys.argv[1], {RULES[2]!r}, 'm3')")
        subprocess.run([sys.executable, "-c", script, spec], cwd=ROOT, check=True, timeout=120)
        assert reader.book_head() == 2
        assert reader.book_head() == 2
