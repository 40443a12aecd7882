"""The installed command's entry point (pyproject.toml [project.scripts]): the app's own folder first on
sys.path, then web/cli.py.

Installed, the app's modules (app, web, scorer) and files live in site-packages/three_thirteen/, a
folder no .pth puts on the environment's path: another distribution may install a top-level `web` or
`app` of its own, and every other program of that environment still imports its own. Only the
three-thirteen command, which starts here as `three_thirteen.web.launch`, imports the app's names,
from that folder (docs/deploy.md says why this and not one package).
"""

import sys
from pathlib import Path

FOLDER = str(Path(__file__).resolve().parent.parent)      # app.py, web/, scorer/, templates/, ...


def main():
    """three-thirteen: the app's folder ahead of everything else (gunicorn's workers are forks of this
    process; web/pool.py gives its processes the folder itself)."""
    sys.path.insert(0, FOLDER)
    for name in [name for name in sys.modules if name.split('.')[0] in ('app', 'web', 'scorer')]:
        del sys.modules[name]             # another distribution's, imported by a .pth of the environment
    from web.cli import main as command
    return command()
