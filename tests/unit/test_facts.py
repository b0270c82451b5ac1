"""Computed facts: experience years, required years and shared skill terms."""

from __future__ import annotations

import datetime

import pytest

from agent.rubric.facts import experience_years, required_years, stated_experience_years
from agent.rubric.terms import hedged_terms, mentioned_terms, term_coverage
from tests.conftest import candidate_path

TODAY = datetime.date(2024, 1, 1)


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("January 2016 - Present", 8.0),
        ("Jan 2016 – Dec 2018", 3.0),
        ("June 2010 - December 2015", 5.6),
        ("Sept. 2019 — Feb 2020", 0.5),
        ("06/2018 - 03/2021", 2.8),
        ("2018-06 to 2021-03", 2.8),
        ("2010 - 2015", 6.0),
        ("2010-2015", 6.0),
        ("(2015-2019)", 5.0),
        ("2015—2019", 5.0),
        ("2019 to present", 5.0),
        ("2017 – current", 7.0),
        ("Analyst, ABC (May 2015 – Present)", 8.7),
        ("Dates Employed: Feb 2015 - now", 8.9),
    ],
)
def test_each_date_range_format(text, years):
    assert experience_years(text, today=TODAY) == years


def test_overlapping_jobs_are_not_double_counted():
    text = "Engineer, A: 2015 - 2019\nConsultant, B (part-time): 2017 - 2018\n"
    assert experience_years(text, today=TODAY) == 5.0


def test_partially_overlapping_and_separate_ranges_merge_correctly():
    text = "Jan 2010 - Dec 2012\nJan 2012 - Dec 2013\nJan 2016 - Dec 2016"
    assert experience_years(text, today=TODAY) == 5.0


def test_present_uses_the_today_argument():
    text = "Developer, X — January 2020 - Present"
    assert experience_years(text, today=datetime.date(2022, 1, 1)) == 2.0
    assert experience_years(text, today=datetime.date(2025, 1, 1)) == 5.0


def test_backwards_and_future_ranges_are_ignored():
    assert experience_years("2019 - 2015", today=TODAY) is None
    assert experience_years("March 2025 - Present", today=TODAY) is None
    assert experience_years("2019 - 2015\n2020 - 2021", today=TODAY) == 2.0


def test_range_running_past_today_is_clipped():
    assert experience_years("2022 - 2026", today=TODAY) == 2.0


def test_no_range_gives_none():
    assert experience_years("Graduated in 2015. Call 555-2015.", today=TODAY) is None
    assert experience_years("", today=TODAY) is None


def test_education_section_ranges_are_not_work_experience():
    text = (
        "Experience:\nDeveloper, X\nJune 2019 - Present\n\n"
        "Education:\nBachelor of Technology\nSome University\n2015 - 2019\n"
    )
    assert experience_years(text, today=TODAY) == 4.6


def test_sample_resume_cand_001():
    text = candidate_path("cand_001").read_text()
    assert "January 2016 - Present" in text
    assert "June 2010 - December 2015" in text
    assert experience_years(text, today=TODAY) == pytest.approx(13.6, abs=0.05)


@pytest.mark.parametrize(
    ("candidate", "years"),
    [("cand_040", 8.4), ("cand_047", 5.4), ("cand_053", 4.4), ("cand_060", 5.0)],
)
def test_other_sample_resumes(candidate, years):
    text = candidate_path(candidate).read_text()
    assert experience_years(text, today=datetime.date(2023, 6, 1)) == years


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("I have over 6 years of experience in Python.", 6.0),
        ("6+ years building APIs", 6.0),
        ("10 years of experience in sales", 10.0),
        ("I have 6 years of Python and Django experience.", 6.0),
        ("5 + years experience; 3 years of experience with AWS", 5.0),
        ("more than five years in retail", 5.0),
        ("Worked 5 years at Google.", None),
        ("No numbers here.", None),
    ],
)
def test_stated_experience_years(text, years):
    assert stated_experience_years(text) == years


def test_stated_experience_of_sample_resume_cand_033():
    text = candidate_path("cand_033").read_text()
    assert "over 6 years of experience" in text
    assert stated_experience_years(text) == 6.0


@pytest.mark.parametrize(
    ("requirement", "years"),
    [
        ("5+ years of Python", 5.0),
        ("3-5 years development experience", 3.0),
        ("Minimum of 5-6 years full-time mobile development", 5.0),
        ("at least 2 years", 2.0),
        ("1+ year(s) related work experience", 1.0),
        ("4 to 6 years of experience", 4.0),
        ("Building statistical models: 10 years (Required)", 10.0),
        ("Minimum 1 year of Experience", 1.0),
        ("6.00-9.00 Years", 6.0),
        ("leadership ability with at least five years of experience", 5.0),
        ("five (5) years of SQL", 5.0),
        ("3+ years of Python and 1+ year of AWS", 3.0),
        ("Bachelor's degree (4-year program)", None),
        ("Familiarity with Docker", None),
    ],
)
def test_required_years(requirement, years):
    assert required_years(requirement) == years


def test_java_does_not_match_javascript():
    assert mentioned_terms("Java", "Expert in JavaScript") == []
    assert mentioned_terms("JavaScript", "Java developer") == []
    assert mentioned_terms("Java and JavaScript", "Java, Python") == ["Java"]


def test_terms_keep_requirement_order_and_spelling_and_dedupe():
    requirement = "3+ years of python, Django and PostgreSQL; Python again"
    profile = "Skilled in Django, Python and PostgreSQL."
    assert mentioned_terms(requirement, profile) == ["python", "Django", "PostgreSQL"]


@pytest.mark.parametrize(
    ("requirement", "profile", "expected"),
    [
        ("JS", "JavaScript", ["JS"]),
        ("JavaScript", "js", ["JavaScript"]),
        ("Postgres", "PostgresSQL", ["Postgres"]),
        ("PostgreSQL", "postgres", ["PostgreSQL"]),
        ("K8s", "Kubernetes", ["K8s"]),
        ("Kubernetes", "k8s clusters", ["Kubernetes"]),
        ("ML", "machine learning", ["ML"]),
        ("machine learning", "Built ML models", ["machine learning"]),
        ("AWS", "Amazon Web Services", ["AWS"]),
        ("GCP", "Google Cloud", ["GCP"]),
        ("CI/CD pipelines", "continuous integration", ["CI/CD"]),
        ("React", "React.js", ["React"]),
        ("ReactJS", "React", ["ReactJS"]),
        ("Node.js", "NodeJS", ["Node.js"]),
        ("Node", "Node.js", ["Node"]),
    ],
)
def test_synonyms_count_as_the_same_term(requirement, profile, expected):
    assert mentioned_terms(requirement, profile) == expected


def test_synonym_mentioned_twice_is_reported_once():
    assert mentioned_terms("JS / JavaScript", "JavaScript") == ["JS"]


def test_symbols_and_stopwords():
    assert mentioned_terms("C++ and C# with .NET", "C#, .NET") == ["C#", ".NET"]
    assert mentioned_terms("C++", "C programmer") == []
    assert mentioned_terms("experience with the team", "experience with the team") == []


def test_words_that_only_wrap_the_ask_are_not_terms():
    requirement = "Minimum 1 year of prior experience with CI tools like Jenkins is mandatory"
    profile = "Minimum effort, prior work, tools like hammers; mandatory fun."
    assert mentioned_terms(requirement, profile) == []
    assert term_coverage(requirement, "Jenkins and CI") == 1.0


@pytest.mark.parametrize(
    ("requirement", "profile", "expected"),
    [
        ("IT system administration", "System Administrator, ABC", ["system", "administration"]),
        (
            "Launching production apps",
            "Launched two apps to production",
            ["Launching", "production", "apps"],
        ),
        ("Go", "going to the office", []),  # a name matches only as written
        ("AWS", "Amazon Web Services", ["AWS"]),
    ],
)
def test_plain_words_match_other_forms_names_do_not(requirement, profile, expected):
    assert mentioned_terms(requirement, profile) == expected


def test_a_term_named_only_with_hedged_wording_counts_half():
    firm = "Flutter Developer for 7 years. Proficient in Dart."
    hedged = "Proficient in Dart. Familiar with Flutter and willing to learn more."
    requirement = "Minimum 1 year of experience with Flutter & Dart"
    assert term_coverage(requirement, firm) == 1.0
    assert term_coverage(requirement, hedged) == 0.75
    assert (
        hedged_terms(requirement, hedged) == ["Flutter"] and hedged_terms(requirement, firm) == []
    )
    # firm somewhere is enough; and a requirement that asks for familiarity gets full credit
    assert term_coverage(requirement, hedged + "\n- Shipped 3 apps with Flutter") == 1.0
    assert term_coverage("Familiarity with Flutter", hedged) == 1.0


def test_hyphenated_term_falls_back_to_its_parts():
    assert mentioned_terms("Full-stack web apps", "full stack developer, web") == [
        "Full-stack",
        "web",
    ]
    assert mentioned_terms("Python-based services", "Python") == ["Python"]


def test_mentioned_terms_on_sample_resume_cand_033():
    profile = candidate_path("cand_033").read_text()
    requirement = "Python, Django, PostgreSQL and JS; Java, Kubernetes"
    assert mentioned_terms(requirement, profile) == ["Python", "Django", "PostgreSQL", "JS"]


@pytest.mark.parametrize(
    ("requirement", "profile", "coverage"),
    [
        # a hyphenated term is one term, covered by one of its parts
        ("Python-based microservices", "Built microservices in Python; evidence-based work.", 1.0),
        ("Python-based microservices", "Wrote Python scripts.", 0.5),
        # synonyms are one term
        ("JS or JavaScript", "JavaScript developer", 1.0),
        ("Kubernetes (K8s) and Go", "Ran k8s clusters", 0.5),
        ("Django and Flask", "Painting walls", 0.0),
        ("a strong team player", "Painting walls", 0.0),
    ],
)
def test_term_coverage_is_a_share_of_distinct_terms(requirement, profile, coverage):
    assert term_coverage(requirement, profile) == pytest.approx(coverage)
