# One image for web and CPU workers; the GPU worker uses Dockerfile.gpu (CUDA base, no DB driver needed).
FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap gettext curl \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements/ requirements/
ARG REQUIREMENTS=requirements/web.txt
RUN pip install --no-cache-dir -r ${REQUIREMENTS}
COPY . .
RUN python manage.py compilemessages -v 0 --ignore '.venv/*' \
    && DJANGO_ENV=production SECRET_KEY=build-time-only-not-a-secret-0123456789abcdefghijklmnop \
       ALLOWED_HOSTS=build DATABASE_URL=sqlite:////tmp/build.db python manage.py collectstatic --noinput -v 0
RUN useradd --create-home --uid 1000 pdc
USER pdc
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "pdcsite.wsgi:application"]
