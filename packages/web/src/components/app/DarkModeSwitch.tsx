import { useDarkMode } from "../../hooks/ui/useDarkMode.ts";

export function DarkModeSwitch() {
  const { dark, toggle } = useDarkMode();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={dark}
      className="switch"
      onClick={toggle}
      data-testid="dark-mode"
    >
      <span className="switch__track" aria-hidden="true">
        <span className="switch__thumb" />
      </span>
      <span className="switch__label">Dark mode</span>
    </button>
  );
}
