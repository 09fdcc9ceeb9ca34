import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { createMemoryRouter, Link, RouterProvider } from "react-router-dom";
import { afterEach, expect, test, vi } from "vitest";
import { HoldPageProvider } from "@/app/hold-page-provider";
import { useHoldPage } from "@/lib/hooks/use-hold-page";

function Holder() {
  const [held, setHeld] = useState(false);
  useHoldPage(held ? "The secret is lost." : null);
  return (
    <>
      <button type="button" onClick={() => setHeld(!held)}>
        {held ? "Release" : "Hold"}
      </button>
      <Link to="/elsewhere">Elsewhere</Link>
    </>
  );
}

function renderHolder() {
  const router = createMemoryRouter([
    {
      path: "/",
      element: (
        <HoldPageProvider>
          <Holder />
        </HoldPageProvider>
      ),
    },
    { path: "/elsewhere", element: <p>Elsewhere page</p> },
  ]);
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => void vi.unstubAllGlobals());

const reload = () => {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

test("while held, a reload gets the browser's question and a navigation asks first; released, both go", async () => {
  const user = userEvent.setup();
  const confirm = vi.fn(() => false);
  vi.stubGlobal("confirm", confirm);
  const router = renderHolder();

  await user.click(screen.getByRole("button", { name: "Hold" }));
  expect(reload()).toBe(true);
  await user.click(screen.getByRole("link", { name: "Elsewhere" }));
  expect(confirm).toHaveBeenCalledWith("Leave this page? The secret is lost.");
  expect(router.state.location.pathname).toBe("/");
  expect(screen.getByRole("button", { name: "Release" })).toBeInTheDocument();

  confirm.mockReturnValue(true);
  await user.click(screen.getByRole("link", { name: "Elsewhere" }));
  expect(await screen.findByText("Elsewhere page")).toBeInTheDocument();
  // Left, nothing is held any more.
  expect(reload()).toBe(false);
});

test("released, nothing is asked", async () => {
  const user = userEvent.setup();
  const confirm = vi.fn(() => true);
  vi.stubGlobal("confirm", confirm);
  renderHolder();
  await user.click(screen.getByRole("button", { name: "Hold" }));
  await user.click(screen.getByRole("button", { name: "Release" }));
  expect(reload()).toBe(false);
  await user.click(screen.getByRole("link", { name: "Elsewhere" }));
  expect(await screen.findByText("Elsewhere page")).toBeInTheDocument();
  expect(confirm).not.toHaveBeenCalled();
});
