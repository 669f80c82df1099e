//! The built page in headless Chromium: the slider, the readout, the URL and the chart's pixels
//! must move together, from a user's input and from a link.

use std::time::Duration;

use tcplab_e2e::with_lab;
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_the_slider_redraws_the_chart_and_updates_the_url() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("").await;
        assert_eq!(lab.value_of("iw").await, "10", "the default IW is 10");
        assert_eq!(
            lab.search().await,
            "",
            "defaults are not written into the URL"
        );
        let readout = lab.text_of("iw-readout").await;
        assert!(readout.starts_with("IW 10:"), "readout: {readout}");
        let pixels = lab.canvas_fingerprint().await;
        lab.screenshot("default").await;

        // One step with the keyboard, as a person would.
        let slider = lab.driver.find(By::Id("iw")).await.expect("the IW slider");
        slider
            .send_keys(Key::Right)
            .await
            .expect("press the right arrow key");
        let before = &readout;
        let moved = lab
            .wait_until(SETTLE, || async move {
                lab.text_of("iw-readout").await != *before
            })
            .await;
        assert!(
            moved,
            "the readout did not change after the arrow key: {readout}"
        );
        let readout_11 = lab.text_of("iw-readout").await;
        assert!(readout_11.starts_with("IW 11:"), "readout: {readout_11}");
        assert_eq!(lab.search().await, "?iw=11");
        assert_eq!(
            lab.value_of("iw-number").await,
            "11",
            "the number box follows"
        );
        let pixels_11 = lab.canvas_fingerprint().await;
        assert_ne!(pixels_11, pixels, "the chart was not redrawn for IW 11");

        // A drag to a far value.
        lab.slide_to(250).await;
        let moved = lab
            .wait_until(SETTLE, || async move {
                lab.text_of("iw-readout").await.starts_with("IW 250:")
            })
            .await;
        assert!(
            moved,
            "readout after the drag: {}",
            lab.text_of("iw-readout").await
        );
        assert_eq!(lab.search().await, "?iw=250");
        let pixels_250 = lab.canvas_fingerprint().await;
        assert_ne!(
            pixels_250, pixels_11,
            "the chart was not redrawn for IW 250"
        );
        assert_ne!(
            pixels_250, pixels,
            "the chart for IW 250 is the default one"
        );
        lab.screenshot("slider-moved").await;

        // Back returns to the previous step, chart included.
        lab.driver.back().await.expect("go back");
        let restored = lab
            .wait_until(SETTLE, || async move { lab.value_of("iw").await == "11" })
            .await;
        assert!(
            restored,
            "Back did not restore IW 11: {}",
            lab.value_of("iw").await
        );
        assert_eq!(lab.search().await, "?iw=11");
        let back_redrawn = lab
            .wait_until(SETTLE, || async move {
                lab.canvas_fingerprint().await == pixels_11
            })
            .await;
        assert!(back_redrawn, "after Back the chart is not the IW 11 chart");

        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_opens_at_its_iw() {
    with_lab(|lab| async move {
        lab.open("?iw=37").await;
        assert_eq!(
            lab.value_of("iw").await,
            "37",
            "the slider shows the link's IW"
        );
        assert_eq!(lab.value_of("iw-number").await, "37");
        let readout = lab.text_of("iw-readout").await;
        assert!(readout.starts_with("IW 37:"), "readout: {readout}");
        assert_eq!(lab.search().await, "?iw=37", "the link is kept as it was");
        assert_eq!(
            lab.text_of("banner").await,
            "",
            "no error banner for a good link"
        );
        lab.screenshot("link-iw-37").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_link_says_why_and_shows_the_defaults() {
    with_lab(|lab| async move {
        lab.open("?iw=0").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("iw"),
            "the banner names the key: {banner:?}"
        );
        assert_eq!(lab.value_of("iw").await, "10", "the defaults are shown");
        lab.screenshot("bad-link").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}
