-- pandoc Lua filter for make docs (ci/docs/build.sh).
-- Links to sibling Markdown pages ("page.md", "page.md#anchor") become links to
-- the HTML pages make docs writes ("page.html#anchor").  A link to a page that
-- does not exist, or to an anchor that page does not define, is an error, so
-- the build fails instead of shipping a dead link.
-- Environment: DOCS_SRCDIR (docs/ directory), DOCS_EXTRA_PAGES (space-separated
-- names of generated pages, e.g. "tp-futex", which can be linked as name.html).

local srcdir = os.getenv("DOCS_SRCDIR") or "."
local extra = " " .. (os.getenv("DOCS_EXTRA_PAGES") or "") .. " "
local ids_cache = {}

local function read_file(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- Identifiers of every header in a sibling page (pandoc's auto identifiers).
local function page_ids(page)
  if ids_cache[page] then return ids_cache[page] end
  local text = read_file(srcdir .. "/" .. page .. ".md")
  if not text then return nil end
  local ids = {}
  local doc = pandoc.read(text, "markdown")
  doc:walk({
    Header = function(h) ids[h.identifier] = true end,
    Span = function(s) if s.identifier ~= "" then ids[s.identifier] = true end end,
    Div = function(d) if d.identifier ~= "" then ids[d.identifier] = true end end,
  })
  ids_cache[page] = ids
  return ids
end

function Link(el)
  local t = el.target
  if t:match("^%a[%w+.-]*:") or t:match("^#") or t == "" then
    return nil -- absolute URL, mailto:, or an anchor in this page
  end
  local page, anchor = t:match("^([%w._/-]+)%.md(#?[%w._-]*)$")
  if page then
    local ids = page_ids(page)
    if not ids then
      error("broken link '" .. t .. "': " .. srcdir .. "/" .. page .. ".md does not exist")
    end
    if anchor ~= "" and not ids[anchor:sub(2)] then
      error("broken link '" .. t .. "': " .. page .. ".md has no heading with id '" .. anchor:sub(2) .. "'")
    end
    el.target = page .. ".html" .. anchor
    return el
  end
  local hpage = t:match("^([%w._-]+)%.html#?[%w._-]*$")
  if hpage then
    if not (page_ids(hpage) or extra:find(" " .. hpage .. " ", 1, true)) then
      error("broken link '" .. t .. "': make docs does not generate " .. hpage .. ".html")
    end
    return nil
  end
  error("link '" .. t .. "' is neither a URL nor a docs page (page.md[#anchor]); write repository paths as `code`, not links")
end
