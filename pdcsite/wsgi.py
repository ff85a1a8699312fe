import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pdcsite.settings")
_django = get_wsgi_application()

from lectures.fastpath import FastPathApp  # noqa: E402  (needs the app registry set up above)

# Stored signed-in lecture pages are answered before Django (lectures/fastpath.py); everything
# else, and every lecture page the fast path is unsure about, goes through Django.
application = FastPathApp(_django)
