import { CLIENT_VERSION } from '@spyglass/protocol';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../ui/logo';

/** The frame of the signed-out screens: the mark, one card, and a quiet footer. */
export function AuthLayout({ title, subtitle, children, footer }: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="auth-screen">
      <header className="auth-brand">
        <Link to="/" aria-label="Spyglass home"><Logo size={26} /></Link>
      </header>
      <main className="auth-main">
        <div className="auth-card">
          <h1 className="auth-title">{title}</h1>
          {subtitle && <p className="auth-subtitle">{subtitle}</p>}
          {children}
        </div>
        {footer && <div className="auth-footer">{footer}</div>}
      </main>
      <footer className="auth-meta">Spyglass {CLIENT_VERSION}</footer>
    </div>
  );
}
