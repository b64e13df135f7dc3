# benchie-cli container image: the scorer, its runtime dependencies and every gold version,
# so that `docker run benchie score ...` gives the same numbers on every machine.
#
#   scripts/build-image                  # computes the labels below and tags
#                                        # benchie:<code version>-gold<gold version>
#   docker build -t benchie:0.2.0-gold1.1.0 .   # the same without labels for the revision
#   docker build --target codabench -t benchie:0.2.0-codabench .   # Codabench's scoring program
#
# Classic Dockerfile syntax only (no BuildKit-only features), so that any builder works.

ARG PYTHON_IMAGE=python:3.11-slim

# ---------------------------------------------------------------------------- build stage
# dvc restores the gold from the DVC remote in the build context; the package is installed
# into a virtual environment; the gold index is compiled. Nothing of dvc reaches the image.
FROM ${PYTHON_IMAGE} AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

# Credentials of a private gold remote (see docs/container.md, "Private test gold"), as build
# arguments: they exist only in this stage, which the final image does not contain. Each gold
# version is pulled from the remote its output of gold.dvc names (default: the embedded one).
ARG AWS_ACCESS_KEY_ID
ARG AWS_SECRET_ACCESS_KEY
ARG AWS_SESSION_TOKEN

RUN python -m venv /opt/dvc && /opt/dvc/bin/pip install --quiet "dvc>=3.0"

WORKDIR /src
COPY .dvc/config .dvc/config
COPY gold.dvc ./
COPY dvc-store/ dvc-store/
RUN /opt/dvc/bin/dvc config --local core.no_scm true \
 && /opt/dvc/bin/dvc pull --quiet

COPY pyproject.toml README.md LICENSE ./
COPY benchie_cli/ benchie_cli/
RUN python -m venv /opt/benchie \
 && /opt/benchie/bin/pip install --quiet . \
 && mkdir -p /opt/benchie/share/benchie-cli \
 && cp -r gold /opt/benchie/share/benchie-cli/gold \
 && mkdir -m 0755 /opt/benchie/cache \
 && BENCHIE_CACHE_DIR=/opt/benchie/cache /opt/benchie/bin/benchie gold verify \
 && BENCHIE_CACHE_DIR=/opt/benchie/cache /opt/benchie/bin/benchie gold compile \
 && /opt/benchie/bin/pip uninstall --quiet --yes pip setuptools

# ---------------------------------------------------------------------------- runtime
# What both images hold: the scorer with its gold and compiled index, and the labels.
FROM ${PYTHON_IMAGE} AS runtime

ARG BENCHIE_VERSION=0.2.0
ARG REVISION=unknown
ARG GOLD_VERSION=1.1.0
ARG GOLD_SHA256=unknown

LABEL org.opencontainers.image.title="benchie" \
      org.opencontainers.image.description="BenchIE fact-level evaluation of Open Information Extraction, with its gold" \
      org.opencontainers.image.version="${BENCHIE_VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="MIT AND CC-BY-4.0" \
      io.benchie.gold.version="${GOLD_VERSION}" \
      io.benchie.gold.manifest-sha256="${GOLD_SHA256}"

COPY --from=build /opt/benchie /opt/benchie

# The gold is found at /opt/benchie/share/benchie-cli/gold (the installed location); the
# compiled index is read from /opt/benchie/cache; GOLD_VERSION is the default gold.
ENV PATH=/opt/benchie/bin:$PATH \
    BENCHIE_CACHE_DIR=/opt/benchie/cache \
    BENCHIE_GOLD_VERSION=${GOLD_VERSION} \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

RUN groupadd --system --gid 10001 benchie \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin benchie

# ---------------------------------------------------------------------------- codabench
# `docker build --target codabench -t benchie:<version>-codabench .`: the scoring program of a
# Codabench competition (README, "For organisers"). Codabench's compute worker runs the
# image's own USER in an output directory owned by root (mode 0755), with every capability
# dropped and no-new-privileges: uid 0 can write there as the directory's owner and holds no
# privilege. The worker keeps the ENTRYPOINT in front of the bundle's command, which is the
# whole `benchie platform score ...` line: so no ENTRYPOINT.
FROM runtime AS codabench
LABEL io.benchie.variant="codabench"
USER 0:0
WORKDIR /app/program
ENTRYPOINT []
CMD ["benchie", "platform", "score", "/app/input", "/app/output"]

# ---------------------------------------------------------------------------- final stage
# The default image (no --target), for `docker run`: non-root, `benchie` as the entry point.
FROM runtime

USER 10001:10001
WORKDIR /data
ENTRYPOINT ["benchie"]
CMD ["--help"]
