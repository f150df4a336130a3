"""`envgen doctor`: the host, what runs there, what a failure means (envgen.doctor).

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from envgen.app._project import expand_spec
from envgen.infra.settings import Settings
from envgen.model.matrix import load_matrix


# --- doctor --------------------------------------------------------------------------------------
def doctor(
    spec_path: Path | None,
    matrix_dir: Path | None,
    *,
    settings: Settings,
    error_text: str | None = None,
    log_file: Path | None = None,
) -> dict[str, Any]:
    """`envgen doctor`: the host, the newest CUDA its driver runs, which variants work here, and
    (with an error text, or a log file's end) what a classic failure means.

    The data's `asked` says whether a text was given, `log_truncated` whether only the log's end
    was read.
    """
    from envgen.doctor import explain, verdicts  # noqa: PLC0415 - ~30 ms; only for doctor
    from envgen.doctor.host import detect_host  # noqa: PLC0415 - the same

    cut = False
    if log_file is not None:
        text, cut = explain.read_log(log_file)
        error_text = (error_text or "") + "\n" + text
    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    host = detect_host()
    os_name = "windows" if host.system == "Windows" else "linux"
    facts = verdicts.gpu_facts(matrix, os_name, host.platform)  # type: ignore[arg-type]
    driver = host.nvidia_driver
    newest = verdicts.newest_cuda_for_driver(driver, facts.drivers) if driver else None
    compat = (
        verdicts.newest_cuda_for_driver(driver, facts.drivers, facts.families) if driver else None
    )
    data: dict[str, Any] = {
        "host": {
            "platform": host.platform,
            "system": host.system,
            "machine": host.machine,
            "python": host.python,
            "glibc": host.glibc,
            "nvidia_driver": host.nvidia_driver,
            "newest_cuda": newest,
            "newest_cuda_minor_compat": compat,
            "gpus": [
                {"name": g.name, "compute_capability": g.compute_capability} for g in host.gpus
            ],
            "rocm": host.rocm,
            "rocm_gfx": list(host.rocm_gfx),
        },
        "variants": [],
        "diagnoses": [],
    }
    if spec_path is not None:
        expansion = expand_spec(spec_path, matrix_dir, settings)
        targets = [
            verdicts.VariantTarget(v.id, v.kind, v.compute_version, v.release.torch)
            for v in expansion.variants
        ]
        for a in verdicts.assess_variants(host, targets, facts):
            data["variants"].append(
                {"id": a.variant_id, "ok": a.ok, "verdict": a.verdict, "reason": a.reason}
            )
    if error_text is not None:
        for d in explain.explain_error(error_text, host=host):
            data["diagnoses"].append({"title": d.title, "cause": d.cause, "fix": d.fix})
    data["asked"] = error_text is not None
    data["log_truncated"] = cut
    return data


_VERDICT_WORDS: Final = {"ok": "ok    ", "minor-compat": "compat", "no": "no    "}


def _newest_cuda(host: dict[str, Any]) -> str:
    newest, compat = host["newest_cuda"], host.get("newest_cuda_minor_compat")
    if compat and compat != newest:
        return f"{newest or '-'} ({compat} through minor-version compatibility)"
    return newest or "-"


def _rocm(host: dict[str, Any]) -> str:
    gfx = host.get("rocm_gfx") or []
    return f"{host['rocm'] or '-'}" + (f" ({' '.join(gfx)})" if gfx else "")


def format_doctor(data: dict[str, Any]) -> str:
    h = data["host"]
    gpus = (
        ", ".join(f"{g['name']} (sm {g['compute_capability']})" for g in h["gpus"])
        or "none visible"
    )
    driver = h["nvidia_driver"] or "none found (nvidia-smi, /proc/driver/nvidia/version)"
    lines = [
        f"platform      {h['platform'] or 'unsupported'} ({h['system']} {h['machine']})",
        f"python        {h['python']}",
        f"glibc         {h['glibc'] or '-'}",
        f"nvidia driver {driver}",
        f"newest CUDA   {_newest_cuda(h)}",
        f"GPUs          {gpus}",
        f"ROCm          {_rocm(h)}",
    ]
    if data["variants"]:
        lines.append("variants:")
        lines += [
            f"  {_VERDICT_WORDS[v['verdict']]} {v['id']}: {v['reason']}" for v in data["variants"]
        ]
    for d in data["diagnoses"]:
        lines += [f"* {d['title']}", f"  cause: {d['cause']}", f"  fix:   {d['fix']}"]
    if data.get("log_truncated"):
        from envgen.doctor.explain import LOG_LIMIT  # noqa: PLC0415 - ~30 ms; only for a truncated log

        lines.append(f"(the log is longer than {LOG_LIMIT // 2**20} MiB: only its end was read)")
    if data.get("asked") and not data["diagnoses"]:
        lines.append("no known failure pattern found in the text")
    return "\n".join(lines)
