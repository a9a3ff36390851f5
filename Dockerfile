# One image for the API (default: gunicorn) and the workers (`python -m workers worker ...`).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PROMETHEUS_MULTIPROC_DIR=/tmp/loveletter-metrics

RUN groupadd --system loveletter && useradd --system --gid loveletter --no-create-home loveletter

WORKDIR /app
# The locked runtime set first (exact versions, checked against their hashes): its layer is
# rebuilt only when the lock changes.
COPY requirements.txt ./
RUN pip install --no-compile --require-hashes -r requirements.txt
COPY pyproject.toml README.md ./
COPY game ./game
COPY events ./events
COPY service ./service
COPY play ./play
COPY workers ./workers
COPY bench ./bench
COPY scenarios ./scenarios
RUN pip install --no-compile --no-deps . && rm -rf /root/.cache

USER loveletter
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["gunicorn", "service.wsgi:app", "--config", "python:service.gunicorn_conf", "--bind", "0.0.0.0:8000"]
