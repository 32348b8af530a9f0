import { Link } from '@tanstack/react-router';
import classes from './layout.module.css';

export function Logo() {
  return (
    <Link to="/" className={classes.logo} aria-label="Dealer Network home">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <path d="M4 16 16 5l12 11v11H4z" fill="#0b7458" />
        <path d="M10 27v-7h12v7" fill="#f5b301" />
        <circle cx="16" cy="14" r="3" fill="#fff" />
      </svg>
      <span>Dealer Network</span>
    </Link>
  );
}
