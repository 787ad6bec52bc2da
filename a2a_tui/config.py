"""`.a2a/config.toml`, validated (imported only when the config is read or written)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Config(BaseModel):
    """`.a2a/config.toml`."""

    model_config = ConfigDict(extra="forbid")

    target_branch: str = Field(min_length=1)
    tmux_session: str = Field(default="", description="tmux session for this repository's panes")
    # Deprecated: the gate rules (.a2a/gate.toml feedback_rounds) decide; still read as their
    # fallback when gate.toml does not say (gate/gate_rules.py).
    feedback_limit: int | None = Field(default=None, ge=0,
                                       description="deprecated: gate.toml feedback_rounds")
