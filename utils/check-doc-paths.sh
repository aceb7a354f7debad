#!/usr/bin/env bash
# Fails when the documentation names a file that is not there, or when a
# results table quotes a figure or a commit that its file does not hold.
#
#   utils/check-doc-paths.sh [--root DIR] [FILE...]
#
# FILE defaults to README.md, bench/README.md and docs/*.md under DIR (the
# source tree; default: this script's). In each file it checks
#   - every Markdown link to a local target ([text](path), relative to the
#     file), which must exist;
#   - every path in inline code and in code blocks whose first component is
#     an entry of DIR (bench/, docs/, utils/, ...) or of the file's own
#     directory (results/ in bench/README.md, Generated/ in docs/); `{a,b}`
#     alternatives and `*` patterns must each match something, and
#     build/bin/NAME must be a tool of tools/NAME; paths under what git
#     ignores (.gpu/) are skipped, as they exist only where made. Words holding a
#     placeholder (<gpu>, $dir, %t) are not paths and are skipped;
#   - every row of a results table: a table row with a link to a file under
#     bench/results/ must name a commit (7 to 40 hex digits, in its last
#     cell) that the file names ("commit abc1234"), and every number in its
#     bold figures (**1.04x**, **68**) must occur in the file, a ratio among
#     the file's own bold ones where it has any (its headline figures), so
#     that the table quotes only what a result file holds.
# Prints one line per problem (FILE:LINE: what) and exits 1 if there is any.
set -uo pipefail
# Words are split unquoted below; no word may expand as a pattern there.
set -f
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "${1:-}" = --root ]; then
  root="$(cd "${2:?usage: check-doc-paths.sh [--root DIR] [FILE...]}" && pwd)"
  shift 2
fi
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=("$root/README.md" "$root/bench/README.md")
  mapfile -t -O 2 files < <(compgen -G "$root/docs/*.md")
fi
status=0
problem() {
  echo "$1: $2"
  status=1
}

# matches BASE WORD: 0 if every alternative of WORD ({a,b}, *) names
# something under BASE; the first missing alternative in $missing.
matches() {
  local base="$1" word="$2" alt
  local -a alts
  eval "alts=($word)" # brace expansion only (set -f): [A-Za-z0-9_./{},*+-]
  for alt in "${alts[@]}"; do
    if ! compgen -G "$base/$alt" >/dev/null; then
      missing="$alt"
      return 1
    fi
  done
}

# check_word FILE:LINE DIR WORD: WORD as a path, if it is one.
check_word() {
  local where="$1" dir="$2" word="$3" first trail='[],.:;)]$' path
  path='^[A-Za-z0-9_.][A-Za-z0-9_./{},*+-]*$'
  word="${word#[([\"\']}"
  word="${word##*=}"
  word="${word%%[\"\'\`]*}"
  while [[ "$word" =~ $trail ]]; do word="${word%?}"; done
  [[ "$word" =~ $path ]] || return 0
  [[ "$word" == */* ]] || return 0
  first="${word%%/*}"
  if [ "$first" = build ]; then
    if [[ "$word" =~ ^build/bin/([A-Za-z0-9_-]+)$ ]]; then
      [ -d "$root/tools/${BASH_REMATCH[1]}" ] ||
        problem "$where" "build/bin/${BASH_REMATCH[1]}: no such tool in tools/"
    fi
    return 0
  fi
  [[ "$first" == *[{}*]* ]] && return 0
  # What git ignores (.gpu/, build directories) exists only where it was
  # made.
  git -C "$root" check-ignore -q "$first" 2>/dev/null && return 0
  local base
  if [ -e "$root/$first" ]; then
    base="$root"
  elif [ "$dir" != "$root" ] && [ -e "$dir/$first" ]; then
    base="$dir"
  else
    return 0
  fi
  local missing=""
  if ! matches "$base" "$word"; then
    if [ "$base" = "$root" ]; then
      problem "$where" "$word: no file $missing"
    else
      problem "$where" "$word: no file $missing in ${base#"$root"/}"
    fi
  fi
}

# check_row FILE:LINE DIR ROW: a results table row.
check_row() {
  local where="$1" dir="$2" row="$3" link file commit figure num
  link="$(grep -oE '\]\([^)]*bench/results/[^)]*\)' <<<"$row" | head -n 1)"
  link="${link#](}"
  link="${link%)}"
  file="$dir/$link"
  [ -f "$file" ] || return 0 # reported as a broken link
  commit="$(awk -F'|' '{ print $(NF - 1) }' <<<"$row" |
    grep -oE '\b[0-9a-f]{7,40}\b' | tail -n 1)"
  if [ -z "$commit" ]; then
    problem "$where" "the row of $link names no commit"
  elif ! grep -qiE "commit:? $commit" "$file"; then
    problem "$where" "$link does not name commit $commit"
  fi
  # The file's own headline ratios (its bold ones), if it has any.
  local bold
  bold=" $(grep -oE '\*\*[^*]+\*\*' "$file" | grep -oE '[0-9]+(\.[0-9]+)?x' |
    tr '\n' ' ')"
  while read -r figure; do
    for num in $(grep -oE '[0-9]+(\.[0-9]+)?x?' <<<"$figure"); do
      if [[ "$num" == *x ]] && [ "$bold" != " " ]; then
        [[ "$bold" == *" $num "* ]] ||
          problem "$where" "$link has no figure **$num**"
      elif ! grep -qE "(^|[^0-9.])${num//./\\.}([^0-9]|\$)" "$file"; then
        problem "$where" "$link does not hold $num"
      fi
    done
  done < <(grep -oE '\*\*[^*]+\*\*' <<<"$row")
}

link_re='\]\(([^) ]*)\)'
code_re='`([^`]+)`'
for doc in "${files[@]}"; do
  [ -f "$doc" ] || { problem "$doc" "no such file"; continue; }
  dir="$(cd "$(dirname "$doc")" && pwd)"
  name="${doc#"$root"/}"
  lineno=0
  fenced=0
  while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    where="$name:$lineno"
    if [[ "$line" =~ ^[[:space:]]*\`\`\` ]]; then
      fenced=$((1 - fenced))
      continue
    fi
    # Markdown links to local files.
    rest="$line"
    while [[ "$rest" =~ $link_re ]]; do
      rest="${rest#*"${BASH_REMATCH[0]}"}"
      target="${BASH_REMATCH[1]%%#*}"
      case "$target" in "" | http://* | https://* | mailto:*) continue ;; esac
      [ -e "$dir/$target" ] || problem "$where" "link to $target: no such file"
    done
    # Paths: every word of a code block, the words of inline code.
    text=""
    if [ "$fenced" = 1 ]; then
      text="$line"
    else
      rest="$line"
      while [[ "$rest" =~ $code_re ]]; do
        text+=" ${BASH_REMATCH[1]}"
        rest="${rest#*"${BASH_REMATCH[0]}"}"
      done
    fi
    text="${text//[;|]/ }"
    for word in $text; do
      case "$word" in *'<'* | *'>'* | *'$'* | *%* | *@*) continue ;; esac
      check_word "$where" "$dir" "$word"
    done
    if [[ "$line" =~ ^\| ]] && [[ "$line" == *"bench/results/"* ]] &&
      [[ "$line" == *"]("* ]]; then
      check_row "$where" "$dir" "$line"
    fi
  done <"$doc"
done
exit "$status"
