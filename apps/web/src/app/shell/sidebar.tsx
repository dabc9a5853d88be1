import { CalendarDays, Compass, ExternalLink, History, LogOut, ShieldCheck, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { NavLink, useMatch } from 'react-router';
import { DeviceSidebarSection } from '../../features/devices/dashboard/device-sidebar-section';
import { useAuth } from '../../lib/auth';
import { usePublicConfig } from '../../lib/config';
import { Logo } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';

/**
 * The left navigation: Devices, Sessions, Book Demo when the server has a scheduling page, and on
 * a device's dashboard that device's header, views and actions.
 */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { profile, logout } = useAuth();
  const { bookDemoUrl } = usePublicConfig();
  const [leaving, setLeaving] = useState(false);
  const deviceId = useMatch('/devices/:deviceId/*')?.params.deviceId;

  const navClass = ({ isActive }: { isActive: boolean }) => `nav-item${isActive ? ' is-active' : ''}`;

  return (
    <div className="sidebar">
      <div className="sidebar-brand">
        <NavLink to="/devices" aria-label="Spyglass home" onClick={onNavigate}><Logo /></NavLink>
      </div>
      <nav className="sidebar-nav" aria-label="Main">
        <NavLink to="/devices" className={navClass} onClick={onNavigate}>
          <Smartphone size={16} aria-hidden="true" />
          <span>Devices</span>
        </NavLink>
        <NavLink to="/sessions" className={navClass} onClick={onNavigate}>
          <History size={16} aria-hidden="true" />
          <span>Sessions</span>
        </NavLink>
        <NavLink to="/welcome-tour" className={navClass} onClick={onNavigate}>
          <Compass size={16} aria-hidden="true" />
          <span>Welcome Tour</span>
        </NavLink>
        {profile?.isAdmin && (
          <NavLink to="/admin" className={navClass} onClick={onNavigate}>
            <ShieldCheck size={16} aria-hidden="true" />
            <span>Admin</span>
          </NavLink>
        )}
        {bookDemoUrl && (
          <a className="nav-item" href={bookDemoUrl} target="_blank" rel="noopener noreferrer">
            <CalendarDays size={16} aria-hidden="true" />
            <span>Book Demo</span>
            <ExternalLink size={12} aria-hidden="true" className="nav-item-external" />
          </a>
        )}
      </nav>
      {deviceId && deviceId !== 'new' && <DeviceSidebarSection key={deviceId} deviceId={deviceId} onNavigate={onNavigate} />}
      <div className="sidebar-footer">
        <div className="sidebar-account">
          <span className="avatar" aria-hidden="true">{(profile?.email ?? '?').slice(0, 1).toUpperCase()}</span>
          <span className="sidebar-email" title={profile?.email}>{profile?.email}</span>
        </div>
        <button
          type="button"
          className="nav-item nav-item-button"
          disabled={leaving}
          onClick={() => {
            setLeaving(true);
            void logout();
          }}
        >
          {leaving ? <Spinner size={16} /> : <LogOut size={16} aria-hidden="true" />}
          <span>Logout</span>
        </button>
      </div>
    </div>
  );
}
