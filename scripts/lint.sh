#!/usr/bin/env bash
# Lint and format checks for every language in the repository: ESLint and Prettier for the
# JavaScript (eslint.config.js, .prettierrc.json), clang-format for the C++ (.clang-format).
# `npm run lint` runs it; tests/node/lint.test.js runs it inside `npm test`.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
npx --no-install eslint --max-warnings 0 . || status=1
npx --no-install prettier --check --log-level warn . || status=1
if command -v clang-format >/dev/null; then
  git ls-files -z '*.cpp' '*.hpp' '*.h' | xargs -0 -r clang-format --dry-run --Werror || status=1
else
  echo "lint: clang-format not found (scripts/setup.sh installs it)" >&2
  status=1
fi
exit $status
