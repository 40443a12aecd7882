"""A release of this project costs a phone only what changed: Pyodide (under its own version's address)
and the Python packages (under theirs) are kept across it, and the new release's scorer runs on
them without a network."""

import pytest


def bundle_paths(page):
    return sorted(page.evaluate("""async () => (await (await caches.open('bundle')).keys())
        .map((r) => new URL(r.url).pathname)"""))


class Recorded:
    """The paths the server is asked for, from now on."""

    def __init__(self, app):
        self.paths, self.inner = [], app.wsgi_app
        app.wsgi_app = self

    def __call__(self, environ, start_response):
        self.paths.append(environ['PATH_INFO'])
        return self.inner(environ, start_response)


@pytest.mark.browser
def test_the_service_worker_keeps_pyodide_and_the_packages_across_a_release(app, browser):
    from tests.browser import until
    from tests.test_offline import keeping, kept_releases
    with keeping(app, browser) as (server, keeper, page, url, path):
        old = page.evaluate('localStorage.getItem("offline-release")')
        before = bundle_paths(page)
        pyodide = [p for p in before if p.startswith(('/offline/pyodide/', '/offline/packages/'))]
        assert len(pyodide) == 6 and kept_releases(page) == [old]
        asked = Recorded(app)
        app.config['OFFLINE_RELEASE'] = 'release-two'              # the server is updated
        page.goto(url)
        page.wait_for_function("() => (localStorage.getItem('kept:' + location.pathname.split('/')[2]) || '')"
                               ".startsWith('release-two:')")
        until(page, lambda: kept_releases(page) == ['release-two'], "the old release's own files gone")
        kept = [p for p in bundle_paths(page) if p.startswith(('/offline/pyodide/', '/offline/packages/'))]
        assert kept == pyodide                                      # Pyodide and the packages stay
        assert '/offline/release-two/python.zip' in asked.paths
        assert not [p for p in asked.paths if p.startswith(('/offline/pyodide/', '/offline/packages/'))], asked.paths
        keeper.set_offline(True)                                    # the new release's scorer, on the kept Pyodide
        page.goto(url + '/rounds/1')
        page.wait_for_function("() => document.getElementById('offline').dataset.warm === '1'")
