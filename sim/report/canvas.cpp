#include "report/canvas.h"

#include <cairo-svg.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace gms {

Rgb sequential_color(double t) {
  static const Rgb anchors[] = {{68 / 255.0, 1 / 255.0, 84 / 255.0},
                                {59 / 255.0, 82 / 255.0, 139 / 255.0},
                                {33 / 255.0, 145 / 255.0, 140 / 255.0},
                                {94 / 255.0, 201 / 255.0, 98 / 255.0},
                                {253 / 255.0, 231 / 255.0, 37 / 255.0}};
  t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * 4;
  int i = std::min(3, static_cast<int>(t));
  double f = t - i;
  Rgb c;
  for (int k = 0; k < 3; ++k) c[k] = anchors[i][k] + (anchors[i + 1][k] - anchors[i][k]) * f;
  return c;
}

Rgb diverging_color(double t) {
  static const Rgb blue = {33 / 255.0, 102 / 255.0, 172 / 255.0}, white = {0.97, 0.97, 0.97},
                   red = {178 / 255.0, 24 / 255.0, 43 / 255.0};
  t = std::clamp(std::isnan(t) ? 0.0 : t, -1.0, 1.0);
  const Rgb& end = t < 0 ? blue : red;
  double f = std::fabs(t);
  Rgb c;
  for (int k = 0; k < 3; ++k) c[k] = white[k] + (end[k] - white[k]) * f;
  return c;
}

Canvas::Canvas(const std::string& path, ImageFormat format, int width, int height)
    : path_(path), format_(format), width_(width), height_(height) {
  if (format == ImageFormat::kPng)
    surface_ = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  else
    surface_ = cairo_svg_surface_create(path.c_str(), width, height);
  if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS) throw ConfigError(path + ": cannot create the image");
  cr_ = cairo_create(surface_);
  fill_rect(0, 0, width, height, {1, 1, 1});
}

Canvas::~Canvas() {
  if (cr_) cairo_destroy(cr_);
  if (surface_) cairo_surface_destroy(surface_);
}

void Canvas::fill_rect(double x, double y, double w, double h, const Rgb& c) {
  cairo_set_source_rgb(cr_, c[0], c[1], c[2]);
  cairo_rectangle(cr_, x, y, w, h);
  cairo_fill(cr_);
}

void Canvas::stroke_rect(double x, double y, double w, double h, const Rgb& c, double lw) {
  cairo_set_source_rgb(cr_, c[0], c[1], c[2]);
  cairo_set_line_width(cr_, lw);
  cairo_rectangle(cr_, x, y, w, h);
  cairo_stroke(cr_);
}

void Canvas::line(double x0, double y0, double x1, double y1, const Rgb& c, double w) {
  cairo_set_source_rgb(cr_, c[0], c[1], c[2]);
  cairo_set_line_width(cr_, w);
  cairo_move_to(cr_, x0, y0);
  cairo_line_to(cr_, x1, y1);
  cairo_stroke(cr_);
}

void Canvas::text(double x, double y, const std::string& s, double size, double anchor, bool bold, const Rgb& c,
                  double angle) {
  cairo_select_font_face(cr_, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr_, size);
  cairo_text_extents_t ext;
  cairo_text_extents(cr_, s.c_str(), &ext);
  cairo_save(cr_);
  cairo_translate(cr_, x, y);
  cairo_rotate(cr_, angle);
  cairo_move_to(cr_, -ext.width * anchor - ext.x_bearing, -ext.height / 2 - ext.y_bearing);
  cairo_set_source_rgb(cr_, c[0], c[1], c[2]);
  cairo_show_text(cr_, s.c_str());
  cairo_restore(cr_);
}

void Canvas::finish() {
  if (finished_) return;
  finished_ = true;
  cairo_destroy(cr_);
  cr_ = nullptr;
  if (format_ == ImageFormat::kPng) {
    if (cairo_surface_write_to_png(surface_, path_.c_str()) != CAIRO_STATUS_SUCCESS)
      throw ConfigError(path_ + ": cannot write the PNG");
  } else {
    cairo_surface_finish(surface_);
    if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS) throw ConfigError(path_ + ": cannot write the SVG");
  }
}

}  // namespace gms
