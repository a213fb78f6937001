"""The seed's environment discovery (_scan_environments in rl_training_tool.py), timed: one scan of DIR, JSON out.

With --recursive the same loop walks subfolders too (rglob instead of glob), as a recursive seed would."""
import ast
import json
import sys
import time
from pathlib import Path


def scan_environments(environments_dir, recursive=False):
    # The seed's loop, unchanged apart from taking the folder as an argument, returning plain dicts and the rglob.
    environments = []
    if not environments_dir.exists():
        return environments
    for py_file in environments_dir.rglob("*.py") if recursive else environments_dir.glob("*.py"):
        if py_file.name.startswith("_"):
            continue
        try:
            with open(py_file, "r") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    for base in node.bases:
                        base_name = ""
                        if isinstance(base, ast.Name):
                            base_name = base.id
                        elif isinstance(base, ast.Attribute):
                            base_name = base.attr
                        if base_name == "BaseEnv":
                            env_name = py_file.stem
                            description = ""
                            config_class = "BaseEnvConfig"
                            for item in node.body:
                                if isinstance(item, ast.Assign):
                                    for target in item.targets:
                                        if isinstance(target, ast.Name):
                                            if target.id == "name" and isinstance(item.value, ast.Constant):
                                                env_name = item.value.value
                                            elif target.id == "env_config_cls" and isinstance(item.value, ast.Name):
                                                config_class = item.value.id
                                if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant):
                                    if isinstance(item.value.value, str) and not description:
                                        description = item.value.value.split("\n")[0].strip()
                            environments.append({
                                "name": env_name,
                                "class_name": node.name,
                                "file_path": str(py_file),
                                "description": description or f"Environment from {py_file.name}",
                                "config_class": config_class,
                            })
                            break
        except Exception as e:
            print(f"Warning: Could not parse {py_file}: {e}", file=sys.stderr)
    return environments


def main():
    started, cpu_started = time.perf_counter(), time.process_time()
    args = [arg for arg in sys.argv[1:] if arg != "--recursive"]
    found = scan_environments(Path(args[0]), "--recursive" in sys.argv[1:])
    scan_seconds, scan_cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    print(json.dumps({"scan_seconds": scan_seconds, "scan_cpu_seconds": scan_cpu_seconds, "environments": len(found)}))


if __name__ == "__main__":
    main()
