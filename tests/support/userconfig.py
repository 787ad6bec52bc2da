"""The user's a2a config file (`$XDG_CONFIG_HOME/a2a/config.toml`) inside a World's HOME."""

from __future__ import annotations

from pathlib import Path

from tests.support.world import World, machine_config


def write_user_config(world: World, text: str) -> Path:
    """Write the world's user config file (TOML text); its path. On a machine that cannot
    confine, a text that does not say `allow_unconfined` keeps the world's allowance
    (world.machine_config)."""
    path = Path(world.setenv["XDG_CONFIG_HOME"]) / "a2a" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if machine_config() and "allow_unconfined" not in text:
        if "[confinement]\n" in text:
            text = text.replace("[confinement]\n", machine_config(), 1)
        else:
            text = text.rstrip("\n") + "\n" + machine_config()   # a table last: keys stay put
    path.write_text(text, encoding="utf-8")
    return path
