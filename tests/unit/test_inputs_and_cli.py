"""Bad input gets one line on stderr and a non-zero exit, before any engine starts."""

import pytest
from typer.testing import CliRunner

from agent.cli.app import app
from agent.ingest.files import InputError, load_candidate, load_job, read_document

runner = CliRunner()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "empty.md").write_text("  \n\n")
    (tmp_path / "binary.md").write_bytes(b"\x00\x01\x02binary")
    (tmp_path / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    (tmp_path / "resume.pdf").write_bytes(b"%PDF-1.7 ...")
    (tmp_path / "resume.docx").write_bytes(b"PK\x03\x04...")
    return tmp_path


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing.md", "file not found"),
        ("empty.md", "file is empty"),
        ("binary.md", "is binary"),
        ("latin1.txt", "is binary, not UTF-8"),
        ("resume.pdf", "is not a readable PDF"),
        ("resume.docx", "not a Word .docx document"),
    ],
)
def test_bad_files_give_clear_errors(files, name, message):
    with pytest.raises(InputError, match=message):
        read_document(files / name, "candidate")


def _pdf(path, lines):
    """A real PDF with a text layer (matplotlib writes it), or a blank page like a scan's."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8.5, 11))
    for i, line in enumerate(lines):
        figure.text(0.1, 0.9 - i * 0.05, line, fontsize=11)
    figure.savefig(path, format="pdf")
    return path


def test_a_pdf_resume_is_read_with_its_text(tmp_path):
    lines = ["Ada Lovelace", "Senior Python developer, 6 years of Django"]
    text = read_document(_pdf(tmp_path / "ada.pdf", lines), "candidate")
    assert text.splitlines() == lines
    assert load_candidate(tmp_path / "ada.pdf").text == "\n".join(lines)


def test_a_pdf_without_a_text_layer_is_a_one_line_error(tmp_path):
    scan = _pdf(tmp_path / "scan.pdf", [])
    with pytest.raises(InputError, match="no text layer") as info:
        read_document(scan, "candidate")
    assert "\n" not in str(info.value) and str(scan) in str(info.value)


def test_a_word_resume_is_read_with_its_paragraphs_and_tables(tmp_path):
    import docx

    document = docx.Document()
    document.add_paragraph("Grace Hopper")
    document.add_paragraph("Built COBOL compilers for 20 years")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Skills"
    table.rows[0].cells[1].text = "COBOL, FORTRAN"
    document.save(tmp_path / "grace.docx")
    text = read_document(tmp_path / "grace.docx", "candidate")
    assert text.splitlines() == [
        "Grace Hopper",
        "Built COBOL compilers for 20 years",
        "Skills | COBOL, FORTRAN",
    ]


def test_directory_is_refused(tmp_path):
    with pytest.raises(InputError, match="not a file"):
        read_document(tmp_path, "job")


def test_job_title_and_requirements(django_job_path, django_candidate_path):
    job = load_job(django_job_path)
    assert job.title == "Django Developer"
    assert len(job.requirements) >= 3
    assert load_candidate(django_candidate_path).id == "cand_033"


@pytest.mark.parametrize("name", ["missing.md", "empty.md", "binary.md", "resume.pdf"])
def test_cli_prints_one_line_and_exits_2(files, django_job_path, name):
    result = runner.invoke(
        app, ["analyze", "--job", str(django_job_path), "--candidate", str(files / name)]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output + result.stderr


def test_cli_refuses_bad_speculation_flags(django_job_path, django_candidate_path):
    result = runner.invoke(
        app,
        [
            "analyze",
            "--job",
            str(django_job_path),
            "--candidate",
            str(django_candidate_path),
            "--prompt-lookup-min",
            "7",
            "--prompt-lookup-max",
            "3",
        ],
    )
    assert result.exit_code == 2
    assert "prompt_lookup_min (7) must not exceed prompt_lookup_max (3)" in result.stderr


def test_cli_refuses_compare_without_speculation(django_job_path, django_candidate_path):
    result = runner.invoke(
        app,
        [
            "analyze",
            "--job",
            str(django_job_path),
            "--candidate",
            str(django_candidate_path),
            "--no-speculation",
            "--compare",
        ],
    )
    assert result.exit_code == 2
    assert "--compare needs speculation on" in result.stderr


def test_help_lists_subcommands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "analyze" in result.output
    assert "model" in result.output


def test_eval_without_pairs_file_is_a_clear_error(tmp_path):
    result = runner.invoke(app, ["eval", "--data", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: no pairs.json in {tmp_path} (give --data)"


@pytest.mark.parametrize(
    ("option", "content", "message"),
    [
        ("--labels", '[{"job": "job_008", "candidate": "cand_033"}]', "grade"),
        (
            "--requirement-labels",
            '{"job_008": [{"text": "SQL", "kind": "required", "keywords": ["sql"]}]}',
            "'kind' must be one of",
        ),
    ],
)
def test_eval_with_bad_labels_fails_before_starting_an_engine(tmp_path, option, content, message):
    labels = tmp_path / "labels.json"
    labels.write_text(content)
    result = runner.invoke(app, ["eval", option, str(labels)])
    assert result.exit_code == 2
    assert message in result.stderr and "Starting vLLM" not in result.stderr
    missing = runner.invoke(app, ["eval", option, str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "labels file not found" in missing.stderr


def test_json_resume_and_json_job_are_loaded(tmp_path):
    resume = tmp_path / "ada.json"
    resume.write_text(
        '{"basics": {"name": "Ada L", "email": "ada@example.com"},'
        ' "work": [{"name": "Acme", "position": "Engineer", "startDate": "2019-01",'
        ' "highlights": ["Built Python services for payments"]}],'
        ' "skills": [{"name": "Python", "keywords": ["Django"]}]}'
    )
    candidate = load_candidate(resume)
    assert candidate.display_name == "Ada L"
    assert "Built Python services for payments" in candidate.text
    assert "ada@example.com" not in candidate.text
    job_file = tmp_path / "job.json"
    job_file.write_text(
        '{"title": "Backend Engineer", "company": "Acme",'
        ' "qualifications": ["3+ years of Python"], "tools": [{"name": "Docker"}]}'
    )
    job = load_job(job_file)
    assert (job.title, job.company) == ("Backend Engineer", "Acme")
    assert [(r.text, r.kind) for r in job.requirements] == [
        ("3+ years of Python", "must_have"),
        ("Docker", "nice_to_have"),
    ]


def test_invalid_json_candidate_is_one_line(tmp_path, django_job_path):
    bad = tmp_path / "cv.json"
    bad.write_text('{"basics": ')
    result = runner.invoke(app, ["analyze", "--job", str(django_job_path), "--candidate", str(bad)])
    assert result.exit_code == 2
    assert "not valid JSON" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
