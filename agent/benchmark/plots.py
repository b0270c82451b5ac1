"""PNG plots of a benchmark's results.json: TPOT and P90 per config, acceptance, latency CDFs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

LEVEL_TITLES = {
    "concurrency_1": "one request at a time",
    "fixed_qps": "fixed arrival rate",
    "max_concurrency": "all requests at once",
}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only, no screen
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _legend(ax: Any, fontsize: int = 8, empty: str = "nothing to plot") -> None:
    """A legend where something was drawn with a label, else `empty` across the axes (an
    `off`-only run has no acceptance to plot, and matplotlib would warn on the terminal)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=fontsize)
    else:
        ax.text(0.5, 0.5, empty, ha="center", va="center", transform=ax.transAxes, color="grey")


def _bars(results: dict[str, Any], metric: str, ylabel: str, title: str, path: Path) -> Path:
    plt = _pyplot()
    configs, levels = results["configs"], results["levels"]
    width = 0.8 / max(len(configs), 1)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for index, config in enumerate(configs):
        values = [config[level][metric] for level in levels]
        xs = [i + index * width for i in range(len(levels))]
        bars = ax.bar(xs, values, width, label=config["name"])
        ax.bar_label(bars, fmt="%.1f", fontsize=7)
    ax.set_xticks([i + width * (len(configs) - 1) / 2 for i in range(len(levels))])
    ax.set_xticklabels([LEVEL_TITLES.get(level, level) for level in levels])
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _legend(ax)
    return _save(plt, fig, path)


def _acceptance(results: dict[str, Any], path: Path) -> Path:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    for config in results["configs"]:
        shares = config.get("acceptance_per_position") or []
        if shares:
            ax.plot(range(1, len(shares) + 1), shares, marker="o", label=config["name"])
    ax.set_xlabel("draft position")
    ax.set_ylabel("share of drafts accepted up to here")
    ax.set_ylim(0, 1)
    ax.set_title(f"Acceptance per draft position ({results['pairs']} pairs)")
    _legend(ax, empty="no speculative config in this run")
    return _save(plt, fig, path)


def _cdfs(results: dict[str, Any], path: Path) -> Path:
    plt = _pyplot()
    levels = results["levels"]
    fig, axes = plt.subplots(1, len(levels), figsize=(4.5 * len(levels), 4), squeeze=False)
    for ax, level in zip(axes[0], levels, strict=True):
        for config in results["configs"]:
            values = sorted(config[level].get("e2e_s_values") or [])
            if values:
                shares = [(i + 1) / len(values) for i in range(len(values))]
                ax.step(values, shares, where="post", label=config["name"])
        ax.set_title(LEVEL_TITLES.get(level, level))
        ax.set_xlabel("end-to-end latency (s)")
        ax.set_ylabel("share of requests")
        ax.set_ylim(0, 1.02)
        _legend(ax, 7)
    return _save(plt, fig, path)


def _sla(results: dict[str, Any], path: Path) -> Path:
    """Each SLA probe's P90 against its arrival rate, one line per config, and a dotted line at
    each config's answer; a probe stopped once its P90 was sure to be over the ceiling is drawn
    as a triangle on the ceiling."""
    plt = _pyplot()
    ceiling = results["sla_p90_s"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    rates: list[float] = []
    any_stopped = False
    for config in results["configs"]:
        sla = config.get("sla") or {}
        probes = sorted(sla.get("probes", []), key=lambda p: p["qps"])
        done = [p for p in probes if p["p90_s"] is not None]
        stopped = [p for p in probes if p["p90_s"] is None]
        rates += [p["qps"] for p in probes]
        label = f"{config['name']}: " + (
            f"{sla['max_qps']:.3f} req/s" if sla.get("max_qps") else "no rate within the ceiling"
        )
        if sla.get("ratio") is not None:
            label += f" ({sla['ratio']:.2f}x)"
        if sla.get("bound_by_capacity"):
            label += ", at its capacity"
        (line,) = ax.plot(
            [p["qps"] for p in done], [p["p90_s"] for p in done], marker="o", label=label
        )
        if stopped:
            any_stopped = True
            xs = [p["qps"] for p in stopped]
            ax.scatter(xs, [ceiling] * len(xs), marker="^", s=60, color=line.get_color())
        if sla.get("max_qps"):  # the answer: the highest rate that met the ceiling
            ax.axvline(sla["max_qps"], color=line.get_color(), linestyle=":", linewidth=1)
    ax.axhline(
        ceiling, color="grey", linestyle="--", linewidth=1, label=f"P90 ceiling {ceiling:g} s"
    )
    if any_stopped:  # one grey legend entry for every config's triangles
        ax.scatter([], [], marker="^", s=60, color="grey", label="stopped: P90 over the ceiling")
    ax.set_xlim(0, max(rates, default=1.0) * 1.08)
    ax.set_ylim(0, ceiling * 1.15)
    ax.set_xlabel("arrival rate = throughput of the probes within the ceiling (requests/s)")
    ax.set_ylabel("P90 end-to-end latency (s)")
    ax.set_title(f"Throughput against P90 latency ({results['pairs']} requests per probe)")
    _legend(ax)
    return _save(plt, fig, path)


def write_plots(results: dict[str, Any], out_dir: Path) -> list[Path]:
    """Write the plots next to results.json (the SLA one after a search); returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [
        _bars(
            results,
            "tpot_ms_p50",
            "ms per output token (median)",
            "Time per output token (lower is better)",
            out_dir / "tpot.png",
        ),
        _bars(
            results,
            "e2e_s_p90",
            "seconds (P90)",
            "P90 end-to-end latency (lower is better)",
            out_dir / "p90_latency.png",
        ),
        _acceptance(results, out_dir / "acceptance_per_position.png"),
        _cdfs(results, out_dir / "latency_cdf.png"),
        *([_sla(results, out_dir / "sla_throughput_p90.png")] if results.get("sla_p90_s") else []),
    ]
