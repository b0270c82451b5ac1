from agent.rubric.evidence import profile_passages, quote_is_grounded, related_passages
from schemas.inputs import Requirement
from tests.conftest import candidate_path

PROFILE = """Name: Candidate 1

Summary:
I build web apps. I have 6 years of Python and Django experience.

Skills:
- PostgreSQL and SQL tuning
- Docker
"""


def test_passages_are_verbatim_substrings():
    passages = profile_passages(PROFILE)
    assert "I have 6 years of Python and Django experience." in passages
    assert "PostgreSQL and SQL tuning" in passages
    assert all(p in PROFILE for p in passages)


def test_passages_of_every_sample_resume_are_verbatim():
    for i in (1, 33, 37, 56):
        text = candidate_path(f"cand_{i:03d}").read_text()
        assert all(p in text for p in profile_passages(text))


def test_related_passages_rank_by_overlap_and_skip_unrelated():
    passages = profile_passages(PROFILE)
    req = Requirement(id="R1", text="Python and Django")
    assert related_passages(req, passages)[0] == "I have 6 years of Python and Django experience."
    assert related_passages(Requirement(id="R2", text="Kubernetes clusters"), passages) == []


def test_a_list_item_is_a_passage_however_short_but_a_heading_is_not():
    profile = "Skills:\n- Linux/Unix Administration\n- Docker\nWork Experience:\nAcme\n"
    passages = profile_passages(profile)
    assert passages == ["Linux/Unix Administration", "Docker"]
    req = Requirement(id="R1", text="Strong experience in Linux/Unix Administration")
    assert related_passages(req, passages)[0] == "Linux/Unix Administration"


def test_related_passages_rank_telling_words_before_words_that_wrap_the_ask():
    passages = [
        "Strong understanding of modern tools and technologies",
        "Built Terraform modules",
        "Built Terraform modules for Linux hosts",
        "Ran Linux servers",
        "Linux user engagement up 20%",
    ]
    req = Requirement(id="R1", text="Strong understanding of tools like Terraform")
    assert related_passages(req, passages) == passages[1:3], "filler-only overlap is no evidence"
    req = Requirement(id="R2", text="Terraform on Linux hosts, user level")
    # three telling words at best: passages with fewer than half as many are not offered
    assert related_passages(req, passages) == [passages[2]]
    req = Requirement(id="R3", text="Terraform on Linux")
    assert related_passages(req, passages) == [passages[2], passages[1], passages[3], passages[4]]


def test_grounding_is_exact():
    assert quote_is_grounded("PostgreSQL and SQL tuning", PROFILE)
    assert not quote_is_grounded("PostgreSQL and MySQL tuning", PROFILE)
    assert not quote_is_grounded("   ", PROFILE)
