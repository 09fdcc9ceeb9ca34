import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { SafeName } from "@/components/safe-name";
import type { Environment } from "../environment-store";
import "./environments.css";

interface EnvironmentSwitcherProps {
  environments: readonly Environment[];
  active: Environment | null;
  onChoose: (environment: Environment) => void;
}

/**
 * The header's badge of the active environment, and a menu button to switch to another one (the WAI-ARIA menu
 * button pattern). Not a <select>: a closed select switches on every arrow key, and switching may drop the key.
 * Here arrow keys only move within the open menu; Enter, Space or a click switches. Hand-written: the app has no
 * menu library, and this is the only menu.
 */
export function EnvironmentSwitcher({ environments, active, onChoose }: EnvironmentSwitcherProps) {
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  // A click anywhere else closes the menu.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && rootRef.current?.contains(event.target) !== true) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  if (environments.length === 0) return null;

  const firstChoosable = Math.max(
    0,
    environments.findIndex((environment) => environment.id !== active?.id),
  );

  function openAt(index: number) {
    setFocusIndex(index);
    setOpen(true);
  }

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  function choose(environment: Environment) {
    if (environment.id === active?.id) return;
    setOpen(false);
    buttonRef.current?.focus();
    onChoose(environment);
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === "ArrowDown") openAt(firstChoosable);
    else if (event.key === "ArrowUp") openAt(environments.length - 1);
    else return;
    event.preventDefault();
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const last = environments.length - 1;
    if (event.key === "ArrowDown") setFocusIndex((index) => (index >= last ? 0 : index + 1));
    else if (event.key === "ArrowUp") setFocusIndex((index) => (index <= 0 ? last : index - 1));
    else if (event.key === "Home") setFocusIndex(0);
    else if (event.key === "End") setFocusIndex(last);
    else if (event.key === "Escape") close();
    else if (event.key === "Tab") setOpen(false);
    else return;
    if (event.key !== "Tab") event.preventDefault();
  }

  return (
    <div className="environment-switcher" ref={rootRef}>
      <span
        className={`badge ${active ? "badge--ok" : "badge--muted"} environment-switcher__badge`}
        data-testid="environment-badge"
      >
        <span className="visually-hidden">Environment: </span>
        {active ? <SafeName>{active.name}</SafeName> : "Unsaved base URL"}
      </span>
      <button
        ref={buttonRef}
        type="button"
        className="environment-switcher__button"
        aria-label="Switch environment"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? setOpen(false) : openAt(firstChoosable))}
        onKeyDown={onButtonKeyDown}
      >
        Switch…
      </button>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-label="Environments"
          className="environment-switcher__menu"
          onKeyDown={onMenuKeyDown}
        >
          {environments.map((environment, index) => {
            const isActive = environment.id === active?.id;
            return (
              <li key={environment.id} role="none">
                <button
                  ref={(element) => {
                    itemRefs.current[index] = element;
                  }}
                  type="button"
                  role="menuitem"
                  tabIndex={index === focusIndex ? 0 : -1}
                  aria-disabled={isActive || undefined}
                  className="environment-switcher__item"
                  onClick={() => choose(environment)}
                >
                  <span>
                    <SafeName>{environment.name}</SafeName>
                    {isActive && " (active)"}
                  </span>
                  <span className="environment-switcher__address">{environment.baseUrl}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
