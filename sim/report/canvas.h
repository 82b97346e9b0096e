#pragma once
// A drawing surface backed by cairo, written as PNG or SVG, with the few primitives the reports use.
#include <cairo.h>

#include <array>
#include <string>

namespace gms {

enum class ImageFormat { kPng, kSvg };

using Rgb = std::array<double, 3>;  // components in [0, 1]

// Perceptually uniform sequential map (viridis anchor colours), t in [0, 1].
Rgb sequential_color(double t);
// Blue - white - red, t in [-1, 1].
Rgb diverging_color(double t);
inline const Rgb kMissingColor = {0.82, 0.82, 0.82};

class Canvas {
 public:
  Canvas(const std::string& path, ImageFormat format, int width, int height);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  cairo_t* cr() { return cr_; }
  int width() const { return width_; }
  int height() const { return height_; }

  void fill_rect(double x, double y, double w, double h, const Rgb& c);
  void stroke_rect(double x, double y, double w, double h, const Rgb& c, double line = 1);
  void line(double x0, double y0, double x1, double y1, const Rgb& c, double width = 1);
  // anchor: 0 = left, 0.5 = centred, 1 = right; text is vertically centred on y.
  void text(double x, double y, const std::string& s, double size, double anchor = 0, bool bold = false,
            const Rgb& c = {0, 0, 0}, double angle = 0);
  // Writes the file; throws ConfigError if it cannot.
  void finish();

 private:
  std::string path_;
  ImageFormat format_;
  int width_, height_;
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;
  bool finished_ = false;
};

}  // namespace gms
