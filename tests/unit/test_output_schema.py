import json
from types import SimpleNamespace

import pytest

from agent.graph.validation import AnalysisInvalidError, validate_analysis
from schemas.analysis import MAX_REASONING_CHARS, MAX_SUMMARY_CHARS
from schemas.inputs import Requirement
from schemas.output_schema import build_analysis_schema, max_json_bytes

REQS = [Requirement(id="R1", text="Python"), Requirement(id="R2", text="Kubernetes")]
PROFILE = "Skills:\n- Python for six years\n- Django"
ALLOWED = {"R1": ["Python for six years"], "R2": []}
DIMENSIONS = {"skills": ["Python for six years", "Django"], "seniority": []}
RATING = {"evidence": [], "rating": 3, "rationale": "Adequate."}


def _answer(**overrides):
    answer = {
        "assessments": [
            {
                "requirement_id": "R1",
                "evidence": ["Python for six years"],
                "verdict": "met",
                "reasoning": "Six years of Python.",
            },
            {
                "requirement_id": "R2",
                "evidence": [],
                "verdict": "insufficient_evidence",
                "reasoning": "Not mentioned.",
            },
        ],
        "skills": {"evidence": ["Django"], "rating": 4, "rationale": "Python and Django."},
        "seniority": RATING,
        "domain_experience": RATING,
        "summary": "Good Python fit. No Kubernetes.",
    }
    answer.update(overrides)
    return answer


def test_schema_fixes_ids_order_and_count():
    schema = build_analysis_schema(REQS, ALLOWED, DIMENSIONS)
    items = schema["properties"]["assessments"]
    assert items["minItems"] == items["maxItems"] == 2
    assert items["items"] is False
    ids = [i["properties"]["requirement_id"]["const"] for i in items["prefixItems"]]
    assert ids == ["R1", "R2"]


def test_quotes_are_an_enum_and_no_passage_means_no_met():
    items = build_analysis_schema(REQS, ALLOWED, DIMENSIONS)["properties"]["assessments"][
        "prefixItems"
    ]
    r1, r2 = (i["properties"] for i in items)
    assert r1["evidence"]["items"]["enum"] == ["Python for six years"]
    assert r1["evidence"]["minItems"] == 1
    assert r2["evidence"]["maxItems"] == 0
    assert set(r2["verdict"]["enum"]) == {"not_met", "insufficient_evidence"}


def test_free_text_is_bounded_in_the_schema():
    props = build_analysis_schema(REQS, ALLOWED, DIMENSIONS)["properties"]
    reasoning = props["assessments"]["prefixItems"][0]["properties"]["reasoning"]
    assert reasoning["maxLength"] == MAX_REASONING_CHARS
    assert props["skills"]["properties"]["rationale"]["maxLength"] == MAX_REASONING_CHARS
    assert props["summary"]["maxLength"] == MAX_SUMMARY_CHARS


def test_ratings_offer_their_own_quotes():
    props = build_analysis_schema(REQS, ALLOWED, DIMENSIONS)["properties"]
    assert props["skills"]["properties"]["evidence"]["items"]["enum"] == DIMENSIONS["skills"]
    assert props["seniority"]["properties"]["evidence"] == {"type": "array", "maxItems": 0}
    assert props["domain_experience"]["properties"]["rating"]["enum"] == [1, 2, 3, 4, 5]


def test_rating_quote_not_in_profile_is_rejected():
    answer = _answer(skills={"evidence": ["Rust"], "rating": 5, "rationale": "Rust."})
    with pytest.raises(AnalysisInvalidError, match="skills: quote not found verbatim"):
        validate_analysis(json.dumps(answer), REQS, PROFILE)


def test_overlong_reasoning_is_rejected():
    answer = _answer()
    answer["assessments"][0]["reasoning"] = "x" * (MAX_REASONING_CHARS + 1)
    with pytest.raises(AnalysisInvalidError, match="reasoning"):
        validate_analysis(json.dumps(answer), REQS, PROFILE)


def test_valid_answer_passes():
    analysis = validate_analysis(json.dumps(_answer()), REQS, PROFILE)
    assert [a.verdict for a in analysis.assessments] == ["met", "insufficient_evidence"]


def test_repeated_quote_is_kept_once():
    answer = _answer()
    answer["assessments"][0]["evidence"] = ["Python for six years"] * 2
    analysis = validate_analysis(json.dumps(answer), REQS, PROFILE)
    assert analysis.assessments[0].evidence == ["Python for six years"]


def test_quote_not_in_profile_is_rejected():
    answer = _answer()
    answer["assessments"][0]["evidence"] = ["Python for ten years"]
    with pytest.raises(AnalysisInvalidError, match="not found verbatim"):
        validate_analysis(json.dumps(answer), REQS, PROFILE)


def test_met_without_evidence_is_rejected():
    answer = _answer()
    answer["assessments"][1]["verdict"] = "met"
    with pytest.raises(AnalysisInvalidError, match="R2: verdict 'met' needs evidence"):
        validate_analysis(json.dumps(answer), REQS, PROFILE)


def test_missing_or_reordered_requirements_are_rejected():
    answer = _answer()
    answer["assessments"].reverse()
    with pytest.raises(AnalysisInvalidError, match="once each, in order"):
        validate_analysis(json.dumps(answer), REQS, PROFILE)


def test_not_json_is_rejected_with_raw_output_kept():
    with pytest.raises(AnalysisInvalidError) as info:
        validate_analysis('{"assessments": [', REQS, PROFILE)
    assert info.value.raw_output == '{"assessments": ['


def test_the_answer_budget_bounds_every_answer_the_schema_admits():
    """max_json_bytes is at least the size of the longest valid answer: quotes, ids, verdicts
    and free text at their longest (accented, so two bytes a character)."""
    quotes = {"R1": ["Shipped Django apps for six years at Acme, 2018-2024."], "R2": []}
    dims = {"skills": quotes["R1"], "seniority": [], "domain_experience": []}
    schema = build_analysis_schema(REQS, quotes, dims)
    long = "é" * MAX_REASONING_CHARS
    rating = {"evidence": quotes["R1"], "rating": 5, "rationale": long}
    answer = {
        "assessments": [
            {
                "requirement_id": "R1",
                "evidence": quotes["R1"],
                "verdict": "insufficient_evidence",
                "reasoning": long,
            },
            {
                "requirement_id": "R2",
                "evidence": [],
                "verdict": "insufficient_evidence",
                "reasoning": long,
            },
        ],
        "skills": rating,
        "seniority": {**rating, "evidence": []},
        "domain_experience": {**rating, "evidence": []},
        "summary": "é" * MAX_SUMMARY_CHARS,
    }
    size = len(json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode())
    assert size <= max_json_bytes(schema) <= size + 64


def test_fewer_years_than_asked_cannot_be_met():
    """Code knows the years: a profile with 4 against 5 asked is partial at best."""
    from agent.graph.request import verdict_choices

    reqs = [
        Requirement(id="R1", text="5+ years of Python and Django"),
        Requirement(id="R2", text="5+ years of Kubernetes"),
        Requirement(id="R3", text="Python and Django"),
    ]
    facts = {
        "stated_experience_years": 4.0,
        "experience_years": None,
        "requirements": {
            "R1": {"required_years": 5.0, "term_coverage": 1.0},
            "R2": {"required_years": 5.0, "term_coverage": 0.0},
            "R3": {"required_years": None, "term_coverage": 1.0},
        },
    }
    assert verdict_choices(reqs, facts) == {
        "R1": ("partial",),
        "R2": ("partial", "not_met"),
        "R3": ("met",),  # names every term, asks no years
    }
    facts["experience_years"] = 6.5  # dated roles cover enough
    assert verdict_choices(reqs, facts) == {"R1": ("met",), "R3": ("met",)}
    facts["requirements"]["R3"]["term_coverage"] = 0.7  # most terms, not nearly all
    assert verdict_choices(reqs, facts)["R3"] == ("met", "partial")


def test_a_requirement_the_profile_hardly_names_cannot_be_met():
    from agent.graph.request import UNNAMED_VERDICTS, verdict_choices

    reqs = [
        Requirement(id="R1", text="Kubernetes operators in Go"),
        Requirement(id="R2", text="Strong communication"),
        Requirement(id="R3", text="Python, Django, SQL and Docker"),
        Requirement(id="R4", text="Tools: Git, Jenkins, Linux, Docker, Python, Django, ExtJS"),
    ]
    facts = {
        "requirements": {
            "R1": {"required_years": None, "terms": 3, "term_coverage": 0.0},
            "R2": {"required_years": None, "terms": 0, "term_coverage": 0.0},  # nothing to name
            "R3": {"required_years": None, "terms": 4, "term_coverage": 0.5},  # some, not most
            "R4": {"required_years": None, "terms": 9, "term_coverage": 0.2},  # a few of a list
        },
    }
    assert verdict_choices(reqs, facts) == {
        "R1": UNNAMED_VERDICTS,
        "R3": ("partial",),
        "R4": ("partial",),
    }
    assert "met" not in UNNAMED_VERDICTS


def test_ratings_are_narrowed_to_what_the_facts_point_to():
    from agent.graph.request import rating_choices
    from schemas.inputs import JobPosting

    reqs = [
        Requirement(id="R1", text="5+ years of Python", dimension="seniority"),
        Requirement(id="R2", text="Python and Django", dimension="skills"),
        Requirement(id="R3", text="SQL", dimension="skills"),
    ]
    facts = {
        "experience_years": 6.0,
        "requirements": {
            "R1": {"required_years": 5.0, "term_coverage": 1.0},
            "R2": {"required_years": None, "term_coverage": 1.0},
            "R3": {"required_years": None, "term_coverage": 0.0},
        },
    }
    job = JobPosting(title="Django Developer", text="# Django Developer\n", requirements=reqs)
    choices = rating_choices(job, reqs, "Python and Django developer since 2018", facts)
    assert choices == {"skills": (3, 4), "seniority": (4, 5), "domain_experience": (4, 5)}
    facts["experience_years"] = None  # years unknown: seniority stays open
    other_field = rating_choices(job, reqs, "Retail store cashier", facts)
    assert "seniority" not in other_field and other_field["domain_experience"] == (1, 2)


def test_a_requirement_whose_names_the_profile_never_names_is_not_shown():
    """ "Kubernetes in production" against a profile that ran systems in production but never
    names Kubernetes: not partly met (the embedded model quoted the production line)."""
    from agent.graph.nodes import requirements as requirement_facts
    from agent.graph.request import UNNAMED_VERDICTS, UNSHOWN_VERDICTS, verdict_choices
    from agent.ingest.masking import apply_edits

    profile = "I have experience with running a system in production.\nSkills: Python, Django."
    reqs = [
        Requirement(id="R1", text="Kubernetes in production"),
        Requirement(id="R2", text="Django in production"),
        Requirement(id="R3", text="Strong communication"),
    ]
    state = {"job": None, "requirements": reqs, "profile": apply_edits(profile, []), "facts": {}}
    runtime = SimpleNamespace(context=SimpleNamespace(engine=None))
    facts = requirement_facts(state, runtime)["facts"]  # type: ignore[arg-type]
    assert facts["requirements"]["R1"]["names"] == 1
    assert facts["requirements"]["R1"]["names_mentioned"] == 0
    choices = verdict_choices(reqs, facts)
    assert choices["R1"] == UNSHOWN_VERDICTS
    assert choices["R2"] == ("met",)  # names Django, and production
    assert choices["R3"] == UNNAMED_VERDICTS  # names nothing: as before
