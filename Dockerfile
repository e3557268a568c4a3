# Mafia table: one container, one process (NiceGUI refuses workers > 1), data in the /data volume.
#   docker build -t mafia-table .
#   docker run -p 8080:8080 -v mafia-data:/data -e STORAGE_SECRET=change-me mafia-table
# Behind HTTPS by one setting: DOMAIN=mafia.example.org docker compose -f compose.single.yaml up -d (README).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin mafia \
    && mkdir -p /data \
    && chown mafia:mafia /data

WORKDIR /app

# Dependencies first, so a code change does not reinstall them: install the project's dependencies
# from pyproject.toml alone, then the project itself.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY . .
RUN pip install --no-deps . \
    && if ls locales/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then \
           pybabel compile -d locales -D messages; \
       fi

USER mafia

# SQLite file and NiceGUI's per-browser storage (the seat identities) both live in the volume.
ENV MAFIA_DATA_DIR=/data \
    NICEGUI_STORAGE_PATH=/data/nicegui \
    PORT=8080
VOLUME /data
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://localhost:%s/healthz' % os.environ.get('PORT', '8080'), timeout=4)"]

CMD ["python", "-m", "webgame"]
