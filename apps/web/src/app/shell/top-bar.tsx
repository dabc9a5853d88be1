import type { Theme } from '@spyglass/protocol';
import { ArrowLeft, Monitor, Moon, PanelBottom, PanelLeft, PanelRight, Settings as SettingsIcon, Sun } from 'lucide-react';
import { NavLink, useNavigate } from 'react-router';
import { THEME_LABELS, nextTheme } from '../../lib/theme';
import { useSettings, useUpdateSettings } from '../../lib/settings';
import { hideTourPanel, useTourShowsPanel } from '../../features/welcome-tour/overlay-store';
import { IconButton } from '../../ui/button';
import { Logo } from '../../ui/logo';
import { Tooltip } from '../../ui/tooltip';

const THEME_ICONS: Record<Theme, typeof Sun> = { default: Monitor, dark: Moon, light: Sun };

export function TopBar({ isMobile, sidebarOpen, onToggleSidebar }: {
  isMobile: boolean;
  sidebarOpen: boolean;
  onToggleSidebar(): void;
}) {
  const navigate = useNavigate();
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const ThemeIcon = THEME_ICONS[settings.theme];
  const upcoming = nextTheme(settings.theme);
  // The guided tour shows the details panel for its steps about the mock editor in it, over a
  // hidden setting; hiding it then is for that step only and saves nothing (the setting says so).
  const tourShowsDetails = useTourShowsPanel('details');
  const detailsShown = settings.showDetails || tourShowsDetails;
  const toggleDetails = () => {
    if (!detailsShown) {
      updateSettings({ showDetails: true });
      return;
    }
    hideTourPanel('details');
    if (settings.showDetails) updateSettings({ showDetails: false });
  };

  // React Router numbers its history entries; at the first one there is nothing of ours to go
  // back to, so Go Back leads to the device list instead of leaving the app.
  const goBack = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate('/devices');
  };

  return (
    <header className="top-bar">
      <div className="top-bar-group">
        <IconButton label={sidebarOpen ? 'Hide sidebar' : 'Show sidebar'} aria-expanded={sidebarOpen} onClick={onToggleSidebar}>
          <PanelLeft size={16} aria-hidden="true" />
        </IconButton>
        <IconButton label="Go Back" onClick={goBack}>
          <ArrowLeft size={16} aria-hidden="true" />
        </IconButton>
        {!sidebarOpen && (
          <NavLink to="/devices" className="top-bar-brand" aria-label="Spyglass home"><Logo size={20} /></NavLink>
        )}
      </div>
      <div className="top-bar-group">
        <IconButton
          label={detailsShown ? 'Hide details panel' : 'Show details panel'}
          pressed={detailsShown}
          onClick={toggleDetails}
        >
          <PanelBottom size={16} aria-hidden="true" />
        </IconButton>
        {!isMobile && (
          <IconButton
            label={settings.showRightSidebar ? 'Hide right sidebar' : 'Show right sidebar'}
            pressed={settings.showRightSidebar}
            onClick={() => updateSettings({ showRightSidebar: !settings.showRightSidebar })}
          >
            <PanelRight size={16} aria-hidden="true" />
          </IconButton>
        )}
        <span className="top-bar-divider" aria-hidden="true" />
        <IconButton
          label={`Theme: ${THEME_LABELS[settings.theme]} (switch to ${THEME_LABELS[upcoming]})`}
          onClick={() => updateSettings({ theme: upcoming })}
        >
          <ThemeIcon size={16} aria-hidden="true" />
        </IconButton>
        <Tooltip content="Settings">
          <NavLink to="/settings" className="icon-btn" aria-label="Settings">
            <SettingsIcon size={16} aria-hidden="true" />
          </NavLink>
        </Tooltip>
      </div>
    </header>
  );
}
