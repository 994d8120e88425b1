"""Configuration: files, `extends`, dotlist overrides and the errors a user sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.config import Arm, ConfigError, RedAgent, load_config, to_flat_dict

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_defaults_are_the_paper_defaults():
    cfg = load_config()
    assert (cfg.protocol.num_instances, cfg.protocol.num_stages, cfg.protocol.max_attempts) == (10, 6, 3)
    assert (cfg.protocol.tau, cfg.protocol.theta) == (-1.1, -15.0)
    assert (cfg.memory.rules_capacity, cfg.memory.examples_capacity) == (100, 50)
    assert cfg.env.max_steps == 30 and cfg.env.red_agent is RedAgent.b_line
    assert cfg.models.default.temperature == 0.0


def test_overrides_and_enum_values():
    cfg = load_config(overrides=["env.red_agent=meander", "env.max_steps=50"])
    assert cfg.env.red_agent is RedAgent.meander and cfg.env.max_steps == 50


def test_unknown_key_in_file_names_key_and_file(tmp_path):
    bad = write(tmp_path / "bad.yaml", "env:\n  max_stepz: 50\n")
    with pytest.raises(ConfigError) as err:
        load_config(bad)
    assert "bad.yaml" in str(err.value) and "env.max_stepz" in str(err.value)


def test_a_config_saved_before_a_key_moved_still_loads(tmp_path):
    # Run directories written before `tracking.experiment` became `run.study` must stay usable.
    from forge.config import from_yaml

    old = write(tmp_path / "config.yaml", "tracking:\n  experiment: lab-a\nrun:\n  name: s1\n")
    assert load_config(old).run.study == "lab-a"
    assert from_yaml(old.read_text()).run.study == "lab-a"


def test_wrong_type_names_key_and_file(tmp_path):
    bad = write(tmp_path / "typed.yaml", "protocol:\n  num_instances: many\n")
    with pytest.raises(ConfigError) as err:
        load_config(bad)
    assert "typed.yaml" in str(err.value) and "protocol.num_instances" in str(err.value)


def test_bad_enum_value_names_choices():
    with pytest.raises(ConfigError) as err:
        load_config(overrides=["protocol.condition=magic"])
    assert "protocol.condition" in str(err.value) and "command line" in str(err.value)


def test_override_without_equals():
    with pytest.raises(ConfigError, match="key=value"):
        load_config(overrides=["env.max_steps"])


def test_extends_chain_and_cycle(tmp_path):
    write(tmp_path / "parent.yaml", "env:\n  max_steps: 100\nprotocol:\n  num_stages: 2\n")
    child = write(tmp_path / "child.yaml", "extends: parent.yaml\nprotocol:\n  num_stages: 4\n")
    cfg = load_config(child)
    assert cfg.env.max_steps == 100 and cfg.protocol.num_stages == 4
    write(tmp_path / "a.yaml", "extends: b.yaml\n")
    write(tmp_path / "b.yaml", "extends: a.yaml\n")
    with pytest.raises(ConfigError, match="cycle"):
        load_config(tmp_path / "a.yaml")


def test_missing_file_and_bad_yaml(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.yaml")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(write(tmp_path / "broken.yaml", "env: [unclosed\n"))


def test_cross_field_validation_names_the_key():
    with pytest.raises(ConfigError, match="models.default.provider"):
        load_config(overrides=["models.default.provider=nowhere"])
    with pytest.raises(ConfigError, match="agents_to_improve"):
        load_config(overrides=["protocol.agents_to_improve=[planner,cook]"])


@pytest.mark.parametrize("name", sorted(str(p.relative_to(CONFIGS)) for p in CONFIGS.rglob("*.yaml")))
def test_every_shipped_config_loads(name):
    load_config(CONFIGS / name)


def test_shipped_conditions():
    conditions = {load_config(CONFIGS / f"{c.value}.yaml").protocol.condition for c in Arm}
    assert conditions == set(Arm)


def test_flat_dict_has_no_secret_values(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-123")
    cfg = load_config(CONFIGS / "providers" / "openai.yaml")
    flat = to_flat_dict(cfg)
    assert "sk-test-secret-123" not in repr(flat)
    assert flat["providers.openai.api_key_env"] == "OPENAI_API_KEY"
