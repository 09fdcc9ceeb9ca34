// The floor of "time to first key row": the key from the dashboard's own sessionStorage items, one fetch,
// rows made with DOM calls. With ?keys=N it goes on fetching pages until it
// holds N keys (the floor of the JS heap with many keys loaded) and says so in body[data-loaded].
const apiKey = sessionStorage.getItem("keyscope.apiKey") ?? "";
const baseUrl = sessionStorage.getItem("keyscope.baseUrl") ?? "";
const wanted = Number(new URLSearchParams(location.search).get("keys") ?? "100");

async function fetchPage(cursor) {
  const response = await fetch(`${baseUrl}/v2/keys.listKeys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(cursor === undefined ? { limit: 100 } : { limit: 100, cursor }),
  });
  if (!response.ok) throw new Error(`listKeys answered ${response.status}`);
  return response.json();
}

const tbody = document.getElementById("keys");
let page = await fetchPage(undefined);
for (const key of page.data.keys) {
  const row = document.createElement("tr");
  for (const text of [key.keyId, key.name]) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(cell);
  }
  tbody.append(row);
}

const keys = [...page.data.keys];
while (keys.length < wanted && page.pagination.hasMore) {
  page = await fetchPage(page.pagination.cursor);
  keys.push(...page.data.keys);
}
window.floorKeys = keys;
document.body.dataset.loaded = String(keys.length);
