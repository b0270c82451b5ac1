"""Batch inputs: folders, globs, .jsonl and .csv lists; bad files and duplicates are recorded."""

from __future__ import annotations

import csv
import json

import pytest

from agent.batch.sources import collect_candidates
from agent.errors import InputError
from tests.conftest import candidate_path

ADA = "Ada Lovelace\nSenior Python developer, 6 years of Django."
GRACE = "Grace Hopper\nCOBOL compilers for 20 years."


def test_a_folder_gives_every_profile_in_name_order_and_records_a_bad_file(tmp_path):
    (tmp_path / "b_grace.md").write_text(GRACE)
    (tmp_path / "a_ada.txt").write_text(ADA)
    (tmp_path / "c_scan.pdf").write_bytes(b"%PDF-1.7 broken")
    (tmp_path / "notes.png").write_bytes(b"\x89PNG")  # not a profile: skipped, not failed
    (tmp_path / ".hidden.md").write_text(ADA)
    found = collect_candidates([str(tmp_path)])
    assert [c.id for c in found.candidates] == ["a_ada", "b_grace"]
    assert [(f.source, "not a readable PDF" in f.reason) for f in found.failed] == [
        (str(tmp_path / "c_scan.pdf"), True)
    ]
    assert found.sources["b_grace"] == str(tmp_path / "b_grace.md")


def test_the_same_resume_twice_is_analyzed_once_and_reported(tmp_path):
    (tmp_path / "ada.md").write_text(ADA)
    (tmp_path / "ada_copy.md").write_text(ADA)
    found = collect_candidates([str(tmp_path)])
    assert [c.id for c in found.candidates] == ["ada"]
    assert [(d.candidate_id, d.same_as) for d in found.duplicates] == [("ada_copy", "ada")]


def test_jsonl_and_csv_lists_take_text_or_a_path(tmp_path):
    (tmp_path / "grace.md").write_text(GRACE)
    rows = [
        {"id": "c1", "name": "Ada L", "text": ADA},
        {"id": "c2", "path": "grace.md"},
        {"id": "c3"},  # neither text nor path
    ]
    (tmp_path / "list.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n\nnot json\n")
    found = collect_candidates([str(tmp_path / "list.jsonl")])
    assert [(c.id, c.display_name) for c in found.candidates] == [("c1", "Ada L"), ("c2", None)]
    assert found.candidates[1].text == GRACE
    assert [(f.source.rsplit(":", 1)[1], f.reason) for f in found.failed] == [
        ("3", "needs a text or a path"),
        ("5", "not a JSON object"),
    ]
    sheet = tmp_path / "list.csv"
    with sheet.open("w", newline="") as out:
        csv.writer(out).writerows([["id", "name", "text"], ["c9", "Ada, L", ADA], ["c10", "", ""]])
    found = collect_candidates([str(sheet)])
    assert [(c.id, c.display_name, c.text) for c in found.candidates] == [("c9", "Ada, L", ADA)]
    assert [f.source for f in found.failed] == [f"{sheet}:3"]


def test_globs_and_single_files_mix_and_a_reused_id_is_refused(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "ada.md").write_text(ADA)
    (tmp_path / "ada.md").write_text(GRACE)  # another resume under the same id
    found = collect_candidates([str(tmp_path / "x" / "*.md"), str(tmp_path / "ada.md")])
    assert [c.id for c in found.candidates] == ["ada"]
    assert "already used" in found.failed[0].reason


@pytest.mark.parametrize("ref", ["missing_folder", "nothing_*.md"])
def test_a_reference_that_names_nothing_is_an_input_error(tmp_path, ref):
    with pytest.raises(InputError, match=r"not found|no candidate files"):
        collect_candidates([str(tmp_path / ref)])


def test_the_sample_resumes_are_all_read():
    folder = candidate_path("cand_033").parent
    found = collect_candidates([str(folder / "*.md")])
    assert len(found.candidates) + len(found.duplicates) == len(list(folder.glob("*.md")))
    assert found.failed == []
