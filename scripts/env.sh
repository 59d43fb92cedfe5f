# Sourced by every script: which node (and npm) the project runs, and what Emscripten runs.
# Usage: source scripts/env.sh   (from bash; safe to source more than once)
#
# The project needs Node.js 20 or later. A machine whose own node is new enough uses it.
# Otherwise (Debian 12 ships Node 18) scripts/setup.sh installs the Node pinned in
# tools/node/package-lock.json into .tools/node, and this puts it first on PATH.

trainscope_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
trainscope_node_min_major=20
trainscope_node_dir="$trainscope_root/.tools/node"
trainscope_node_bin="$trainscope_node_dir/bin"  # links that scripts/setup.sh makes

# Prints the major version of the node at $1, or 0 when there is none that runs.
trainscope_node_major() {
  "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# True when the first node on PATH is new enough for the project.
trainscope_node_ok() {
  local node_path
  node_path="$(command -v node 2>/dev/null)" || return 1
  [ "$(trainscope_node_major "$node_path")" -ge "$trainscope_node_min_major" ]
}

# Puts the project's own node (and its npm) first on PATH when the machine's is missing or too old.
trainscope_use_project_node() {
  if ! trainscope_node_ok && [ -x "$trainscope_node_bin/node" ]; then
    case ":$PATH:" in
      *":$trainscope_node_bin:"*) ;;
      *) PATH="$trainscope_node_bin:$PATH" ;;
    esac
    export PATH
  fi
  # Emscripten runs its JS tools with EM_NODE_JS when set (else its config's NODE_JS): the same node.
  if command -v node >/dev/null 2>&1; then
    EM_NODE_JS="$(command -v node)"
    export EM_NODE_JS
  fi
}

trainscope_use_project_node

