"""`hiring-assistant eval`: ranking quality of our scores on labelled data, on a real engine."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from agent.cli.options import start_engine
from agent.cli.output import friendly_errors, say
from serving.config import get_settings

if TYPE_CHECKING:
    from schemas.report import MatchReport


def evaluate(
    data: Annotated[Path, typer.Option(help="Folder with jobs/, candidates/, pairs.json.")] = Path(
        "samples"
    ),
    jobs: Annotated[int | None, typer.Option(min=1, help="Rank for the first N jobs only.")] = None,
    distractors: Annotated[int, typer.Option(min=0, help="Off-topic resumes per job.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed for choosing distractors.")] = 0,
    labels: Annotated[
        Path | None,
        typer.Option(help="JSON list of {job, candidate, grade and/or verdicts} to compare with."),
    ] = None,
    requirement_labels: Annotated[
        Path | None,
        typer.Option(
            help="JSON {job id: [{text, kind, keywords}]}: precision and recall of extraction "
            "(tests/fixtures/requirement_labels.json labels 10 sample jobs)."
        ),
    ] = None,
    out: Annotated[Path, typer.Option(help="Folder for results.json.")] = Path("eval-out"),
) -> None:
    """Measure ranking quality: top-1, MRR, strong above weak, failures, model-written text.

    With --labels: Spearman against the grades and agreement with the per-requirement verdicts;
    with --requirement-labels: how well requirements are found in the postings.
    """
    from agent.errors import InputError
    from agent.evaluation.extraction import measure_extraction
    from agent.evaluation.labels import load_labels
    from agent.evaluation.ranking import ranking_tasks
    from agent.evaluation.runner import labelled_eval, ranking_eval, write_results

    with friendly_errors():
        pairs = data / "pairs.json"
        if not pairs.is_file():
            raise InputError(f"no pairs.json in {data} (give --data)")
        try:
            tasks = ranking_tasks(
                pairs, data / "jobs", distractors=distractors, seed=seed, limit=jobs
            )
            for given in (labels, requirement_labels):
                if given is not None and not given.is_file():
                    raise InputError(f"labels file not found: {given}")
            labelled = load_labels(labels) if labels is not None else None
            extraction = (
                measure_extraction(data / "jobs", requirement_labels)
                if requirement_labels is not None
                else None
            )
        except ValueError as exc:
            raise InputError(str(exc)) from None
        settings = get_settings().for_profile("interactive")
        results: dict[str, Any] = {"speculation": settings.speculation.label}
        if extraction is not None:
            say("Requirements found in the postings, against the hand labels:")
            typer.echo(extraction.format_table())
            results["extraction"] = extraction.to_dict()
        reports: list[MatchReport] = []
        with start_engine(settings) as engine:
            results["model"] = engine.info.model
            say(f"Ranking: {len(tasks)} jobs, intended resume among {distractors + 2}…")
            results["ranking"] = ranking_eval(engine, data, tasks, typer.echo, reports)
            if labelled is not None:
                results["labelled"] = labelled_eval(engine, data, labelled, typer.echo)
        written = write_results(out, results, reports)
        typer.echo(f"Results written to {', '.join(str(p) for p in written)}")
