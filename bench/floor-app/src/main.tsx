// The floor of the bundle benchmark: the smallest app on the mandated libraries — one route listing keys
// with one useQuery. Keyscope's first-screen JavaScript and its time to first key row are measured against
// this; it reads the key from the dashboard's own sessionStorage item, and its one route matches wherever the
// bench serves it (/bench-floor-app/index.html).
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router-dom";

interface Key {
  keyId: string;
  name: string;
}

async function listKeys(): Promise<Key[]> {
  const response = await fetch("/v2/keys.listKeys", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${sessionStorage.getItem("keyscope.apiKey") ?? ""}`,
    },
    body: JSON.stringify({ limit: 100 }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { data: { keys: Key[] } };
  return body.data.keys;
}

function KeysRoute() {
  const { data, error } = useQuery({ queryKey: ["keys"], queryFn: listKeys });
  if (error) return <p>{error.message}</p>;
  if (!data) return <p>Loading…</p>;
  return (
    <ul>
      {data.map((key) => (
        <li key={key.keyId}>
          {key.keyId} {key.name}
        </li>
      ))}
    </ul>
  );
}

const router = createBrowserRouter([{ path: "*", Component: KeysRoute }]);
const queryClient = new QueryClient();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
