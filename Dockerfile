# The bot in a container: `docker build -t cardbot .`, then see compose.yaml and
# docs/operations.md. Slim Python, the versions pinned in constraints.txt, a non-root user,
# the data folder a volume, and a health check on /healthz.
#
# The base image is pinned by its digest (both stages the same), so that a rebuild gets the
# same system and Python until someone chooses to move. To bump it (for security fixes, say
# monthly): `docker buildx imagetools inspect python:3.11-slim` (or `docker pull
# python:3.11-slim` and `docker inspect --format '{{index .RepoDigests 0}}'
# python:3.11-slim`) prints the list's current digest; put it after the `@` in both FROM
# lines, build, run the tests against the image, commit.

FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7 AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE constraints.txt ./
COPY engine engine
COPY bot bot
COPY adapters adapters
COPY storage storage
# Wheels of the bot and of exactly the pinned versions of what it needs.
RUN pip wheel --no-cache-dir --wheel-dir /wheels --constraint constraints.txt .

FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin cardbot \
    && mkdir -p /data && chown cardbot:cardbot /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index /wheels/*.whl && rm -rf /wheels
USER cardbot
WORKDIR /data
# The database lives in the volume; /healthz (and /metrics, with BOT_METRICS=on) on 8080,
# never public; the web table, when WEB_PUBLIC_URL is set, on 8081 (its own port: exposing
# it exposes no health or metrics); Telegram's webhook, when TELEGRAM_WEBHOOK_URL is set, on
# 8443.
ENV BOT_DB=/data/cardbot.sqlite3 \
    BOT_HEALTH_PORT=8080 \
    BOT_HEALTH_LISTEN=0.0.0.0 \
    WEB_PORT=8081 \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
EXPOSE 8080 8081 8443
# 200 from /healthz while the store answers; 503 (or no answer) makes urlopen raise: exit 1.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as r; r.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('BOT_HEALTH_PORT', '8080'), timeout=4)"]
# SIGTERM (docker stop) stops the bot cleanly: tables are kept and, on PostgreSQL, their
# leases handed back at once.
STOPSIGNAL SIGTERM
ENTRYPOINT ["cardbot"]
