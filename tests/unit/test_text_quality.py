"""Junk text is recognised, and code composes what the model could not write."""

from __future__ import annotations

import json

import pytest

from agent.rubric.compose import compose_reasoning, polish, shared_phrases
from agent.rubric.scoring import score_analysis
from agent.rubric.text_quality import junk_reason, unfounded_reason
from schemas.analysis import MAX_REASONING_CHARS, MatchAnalysis, RequirementAssessment
from schemas.inputs import Requirement


@pytest.mark.parametrize(
    "text",
    [
        "not_met",  # a verdict word as reasoning
        "Not met",
        "...",  # punctuation only
        "Mett",  # a fragment
        "Strong Python skills",  # a handful of words
        "### [2014 - 2018] 2014 - 2018] 2014 - 2018] 2014 - 2018]",  # a loop
        "Django Django Django Django Django Django",
        "5+ years of Python and Django experience",  # a copy of the requirement
        "A highly skilled PHP Laravel developer who",  # stopped mid-sentence
        "This is not a must-have for the role,",
    ],
)
def test_degenerate_text_is_junk(text):
    assert junk_reason(text, echo_of="5+ years of Python and Django experience") is not None


PROFILE = (
    "I am a full-stack web developer with over 6 years of experience in Python Django. "
    "Built payment services at Acme."
)


def test_the_profile_copied_looped_or_cut_off_is_junk():
    looped = (
        "I am a full-stack web developer with over 6 years of experience in Python Django. I am "
        "a full-stack web developer with over 6 years of experience in a"
    )
    assert junk_reason(looped) == "a repeated phrase"
    copied = "I am a full-stack web developer with over 6 years of experience in Python Django."
    assert junk_reason(copied, source=PROFILE) == "copied from the profile"
    assert junk_reason(copied) is None  # the same words are fine when they are not a copy
    cut = "The profile shows Django work at two companies and a long list of " + "x" * 100
    assert junk_reason(cut[:150], limit=150) == "cut off at the length limit"
    assert junk_reason("Shows six years of Django, more than asked.", limit=150) is None


@pytest.mark.parametrize(
    "text",
    [
        "Built Django REST APIs for four years at a fintech company.",
        "The profile lists SQL but shows no production database work.",
        "A good fit. Strong on the core skills.",
        "Six years of Python and Django experience",  # no full stop, but finished
    ],
)
def test_sentences_a_recruiter_would_read_pass(text):
    assert junk_reason(text, echo_of="5+ years of Python and Django experience") is None


REQS = [
    Requirement(id="R1", text="5+ years of Python", dimension="skills"),
    Requirement(id="R2", text="Kubernetes in production", dimension="skills"),
]
QUOTE = "Built Python services for payments at Acme from 2019 to 2024"


def _analysis(reasoning: str, summary: str) -> MatchAnalysis:
    rating = {"evidence": [QUOTE], "rating": 4, "rationale": "not_met"}
    return MatchAnalysis.model_validate(
        {
            "assessments": [
                {
                    "requirement_id": "R1",
                    "evidence": [QUOTE],
                    "verdict": "partial",
                    "reasoning": reasoning,
                },
                {
                    "requirement_id": "R2",
                    "evidence": [],
                    "verdict": "insufficient_evidence",
                    "reasoning": "not_met",
                },
            ],
            "skills": rating,
            "seniority": rating,
            "domain_experience": rating,
            "summary": summary,
        }
    )


FACTS = {
    "experience_years": 5.2,
    "requirements": {"R1": {"required_years": 5, "mentioned_terms": ["Python"]}},
}


def test_junk_is_replaced_and_marked_composed_good_text_is_kept():
    analysis = _analysis("Python work at Acme covers most of the years asked.", "...")
    polished, origin = polish(analysis, REQS, FACTS, score_analysis(REQS, analysis), QUOTE)
    assert origin == {
        "R1.reasoning": "model",
        "R2.reasoning": "composed",
        "skills.rationale": "composed",
        "seniority.rationale": "composed",
        "domain_experience.rationale": "composed",
        "summary": "composed",
    }
    assert polished.assessments[0].reasoning == analysis.assessments[0].reasoning
    assert polished.assessments[1].reasoning == "The profile does not mention it."
    assert polished.seniority.rationale == "Rated 4/5; 5.2 years of dated roles."
    assert polished.skills.rationale == ("Rated 4/5; 0 of 2 skills requirements met, 1 partly.")
    assert polished.summary.startswith("Meets 0 of 2 requirements (0/2 must-haves).")
    assert "Partly: R1 (5+ years of Python)." in polished.summary
    assert "Not shown: R2 (Kubernetes in production)." in polished.summary
    # verdicts and quotes are the model's, untouched
    assert [a.verdict for a in polished.assessments] == ["partial", "insufficient_evidence"]
    assert polished.assessments[0].evidence == [QUOTE]
    # what code composes passes the same check
    texts = [a.reasoning for a in polished.assessments] + [polished.summary]
    texts += [r.rationale for r in polished.ratings().values()]
    assert [t for t in texts if junk_reason(t) is not None] == []
    # still a valid answer (stored reports are validated again when shown)
    MatchAnalysis.model_validate(json.loads(polished.model_dump_json()))


def test_a_composed_domain_rationale_without_a_quote_says_what_the_rating_rests_on():
    from agent.rubric.compose import compose_rationale
    from schemas.analysis import DimensionRating

    rating = DimensionRating(evidence=[], rating=5, rationale="not_met")
    text = compose_rationale("domain_experience", rating, REQS, [], {})
    assert text == "Rated 5/5 by how much of the job title the profile names."


def test_composed_reasoning_names_the_terms_and_counts_years():
    assessment = RequirementAssessment(
        requirement_id="R1", evidence=[QUOTE], verdict="partial", reasoning="x"
    )
    r1 = FACTS["requirements"]["R1"]
    text = compose_reasoning(assessment, "5+ years of Python", r1, {"experience_years": 3})
    assert (
        text == "The quote shows Python, not all that is asked. Dated roles cover 3 years; 5 asked."
    )
    elsewhere = assessment.model_copy(update={"evidence": ["Led a team of four"], "verdict": "met"})
    assert compose_reasoning(elsewhere, "5+ years of Python", r1, {}) == (
        "Judged met, though the quote names none of its terms."
    )
    assert len(text) <= MAX_REASONING_CHARS
    unquoted = assessment.model_copy(update={"evidence": [], "verdict": "not_met"})
    assert compose_reasoning(unquoted, "5+ years of Python", {}, {}) == (
        "Nothing in the profile shows it."
    )


def test_shared_phrases_are_the_requirements_telling_words_the_quote_says():
    quote = "I am a full-stack web developer with over 6 years of experience in Python Django."
    asked = "5+ years experience in Full stack web development with expertise in Python Django"
    assert shared_phrases(asked, [quote]) == ["Full stack web", "Python Django"]
    # only generic words in common ("user", "basic") show nothing
    assert shared_phrases("Basic (user level) knowledge of Linux", ["Raised user engagement"]) == []
    assessment = RequirementAssessment(
        requirement_id="R1", evidence=[quote], verdict="met", reasoning="met"
    )
    assert compose_reasoning(assessment, asked, {}, {}) == (
        "The quote shows Full stack web and Python Django."
    )


def test_a_copy_of_the_prompts_example_answer_is_junk():
    instructions = (
        'Answer for R1: {"requirement_id":"R1","verdict":"met",'
        '"reasoning":"Four years building Python services."}'
    )
    assert junk_reason("Four years building Python services.", instructions=instructions) == (
        "copied from the instructions"
    )
    assert junk_reason("Six years building Django services.", instructions=instructions) is None


KNOWN = "Full Stack Developer, 5 years of Python and Django.\nRequirement: Node.js and AWS"


@pytest.mark.parametrize(
    ("text", "verdict", "reason"),
    [
        ("Four years building Python services at Acme", "met", "a number the profile does not"),
        ("Built payment services at Acme with Python", "met", "a name the profile does not give"),
        ("Basic knowledge of Nagios and Jenkins", "not_met", "a name the profile does not give"),
        ("The profile does not mention Python anywhere", "met", "contradicts its verdict"),
        ("Python and Django work is listed in full", "not_met", "contradicts its verdict"),
    ],
)
def test_text_that_says_what_the_profile_does_not_is_unfounded(text, verdict, reason):
    assert unfounded_reason(text, KNOWN, verdict).startswith(reason)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Five years of Python and Django work.", "met"),
        ("The profile does not mention Node.js at all.", "insufficient_evidence"),
        ("Python and Django, but no AWS named.", "not_met"),
        ("A full stack developer with Python and Django.", None),
    ],
)
def test_text_grounded_in_the_profile_passes(text, verdict):
    assert unfounded_reason(text, KNOWN, verdict) is None


PROFILE_TEXT = "Full Stack Developer, 5 years of Python and Django.\nAgile development process"


@pytest.mark.parametrize(
    ("text", "verdict", "scope", "reason"),
    [
        # names another requirement's skill, under this one
        ("The profile does not mention Node.js here.", "not_met", "CSS preprocessors", "a name"),
        # denies what the profile says
        ("The profile does not mention Python at all.", "not_met", "Python 3", "denies what"),
    ],
)
def test_a_reasoning_stays_on_its_requirement_and_does_not_deny_the_profile(
    text, verdict, scope, reason
):
    found = unfounded_reason(text, KNOWN, verdict, scope=scope, profile=PROFILE_TEXT)
    assert found is not None and found.startswith(reason)
    on_topic = "The profile does not mention Node.js at all."
    assert (
        unfounded_reason(on_topic, KNOWN, "not_met", scope="Node.js", profile=PROFILE_TEXT) is None
    )


def test_a_whole_line_of_the_profile_is_a_copy_however_short():
    assert junk_reason("Agile development process experience", source=PROFILE_TEXT) is None
    line = "Full Stack Developer, 5 years of Python"
    assert junk_reason(line, source=PROFILE_TEXT) == "copied from the profile"


def test_polish_composes_over_made_up_text():
    analysis = _analysis("Six years of Python at Acme Corp, all of it shipped.", "fine")
    polished, origin = polish(analysis, REQS, FACTS, score_analysis(REQS, analysis), QUOTE)
    assert origin["R1.reasoning"] == "composed"
    assert "Acme Corp" not in polished.assessments[0].reasoning
